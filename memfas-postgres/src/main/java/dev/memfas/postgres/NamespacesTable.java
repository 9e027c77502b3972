package dev.memfas.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code memfas_namespace_stats} table: per namespace, how many memories it holds (counted without a scan), kept by
 * every write transaction as its last statements but the change log's.
 */
final class NamespacesTable {
    private NamespacesTable() {}

    /** Adds each namespace's change of memories (negative for fewer), in namespace order. */
    static void add(Connection c, Map<String, Long> changes) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO memfas_namespace_stats AS s (namespace, "
                + "memories) VALUES (?, ?) ON CONFLICT (namespace) DO UPDATE SET "
                + "memories = s.memories + excluded.memories")) {
            for (Map.Entry<String, Long> e : changes.entrySet()) {
                ps.setString(1, e.getKey());
                ps.setLong(2, e.getValue());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    static long count(Connection c, String namespace) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT memories FROM memfas_namespace_stats WHERE namespace = ?")) {
            ps.setString(1, namespace);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0L;
            }
        }
    }

    /** The namespaces that hold a memory. */
    static List<String> withMemories(Connection c) throws SQLException {
        return names(c, "SELECT namespace FROM memfas_namespace_stats WHERE memories > 0");
    }

    /** The namespaces that hold a memory or a trigger, sorted. */
    static Set<String> all(Connection c) throws SQLException {
        return Set.copyOf(new TreeSet<>(names(c, "SELECT namespace FROM memfas_namespace_stats WHERE memories > 0 "
                + "UNION SELECT DISTINCT namespace FROM memfas_triggers")));
    }

    private static List<String> names(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
