package dev.memfas.bench;

import dev.memfas.postgres.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * Schemas of their own for runs against PostgreSQL: at a JDBC URL the caller gives, or on the embedded server of
 * memfas-postgres's tests ({@code embedded}: unpacked from a Maven Central artifact and started once per JVM).
 */
final class PostgresEval {
    private PostgresEval() {}

    /** A new empty schema at the server, as a JDBC URL whose search path starts with it. */
    static String newSchema(String server) {
        if (server.equals("embedded")) {
            return EmbeddedPostgres.shared().newSchemaUrl();
        }
        String schema = "memfas_eval_" + UUID.randomUUID().toString().replace("-", "");
        try (Connection c = DriverManager.getConnection(server); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + schema);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create a schema at " + server + ": " + e.getMessage(), e);
        }
        return server + (server.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }

    /** Drops the schema a URL of {@link #newSchema} names, with everything in it. */
    static void dropSchema(String url) {
        String schema = url.substring(url.lastIndexOf("currentSchema=") + "currentSchema=".length());
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA " + schema + " CASCADE");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot drop schema " + schema + ": " + e.getMessage(), e);
        }
    }
}
