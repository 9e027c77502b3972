package dev.memfas.postgres;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A database's address as a user writes it: a JDBC URL ({@code jdbc:postgresql://host:port/db?user=…}) or a libpq
 * URI ({@code postgresql://user:password@host:port/db?…}, also {@code postgres://}). Messages name it by
 * {@link #display()}: scheme, host, port and database, never a user's password.
 */
record PostgresUrl(String jdbcUrl, String user, String password) {
    private static final String JDBC = "jdbc:postgresql:";

    /** Whether a string names a PostgreSQL database rather than a file. */
    static boolean isPostgres(String location) {
        return location.startsWith(JDBC) || location.startsWith("postgresql://") || location.startsWith("postgres://");
    }

    static PostgresUrl parse(String url) {
        Objects.requireNonNull(url, "url");
        if (url.startsWith(JDBC)) {
            return new PostgresUrl(url, null, null);
        }
        int schemeEnd = url.indexOf("://");
        if (!isPostgres(url) || schemeEnd < 0) {
            throw new IllegalArgumentException("not a PostgreSQL URL (jdbc:postgresql://host/db or "
                    + "postgresql://user@host/db): '" + withoutSecrets(url) + "'");
        }
        String rest = url.substring(schemeEnd + 3);
        int slash = rest.indexOf('/');
        String authority = slash < 0 ? rest : rest.substring(0, slash);
        String path = slash < 0 ? "" : rest.substring(slash);
        int at = authority.lastIndexOf('@');
        String user = null;
        String password = null;
        if (at >= 0) {
            String userInfo = authority.substring(0, at);
            authority = authority.substring(at + 1);
            int colon = userInfo.indexOf(':');
            user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
            password = colon < 0 ? null : decode(userInfo.substring(colon + 1));
        }
        if (authority.isEmpty()) {
            authority = "localhost";
        }
        return new PostgresUrl("jdbc:postgresql://" + authority + path, user, password);
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** The database as messages name it: no parameters, no user information. */
    String display() {
        return withoutSecrets(jdbcUrl);
    }

    private static String withoutSecrets(String url) {
        int query = url.indexOf('?');
        String base = query < 0 ? url : url.substring(0, query);
        int schemeEnd = base.indexOf("://");
        int at = base.lastIndexOf('@');
        if (schemeEnd >= 0 && at > schemeEnd) {
            base = base.substring(0, schemeEnd + 3) + base.substring(at + 1);
        }
        return base;
    }

    /** Connections opened by the driver, one per call. */
    DataSource dataSource() {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setURL(jdbcUrl);
        if (user != null) {
            ds.setUser(user);
        }
        if (password != null) {
            ds.setPassword(password);
        }
        if (!jdbcUrl.contains("ApplicationName=")) {
            ds.setApplicationName("memfas");
        }
        return ds;
    }

    @Override
    public String toString() {
        return display();
    }
}
