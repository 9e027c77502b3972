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
 * The {@code memfas_namespace_stats} table: per namespace, how many memories and lexemes it holds (BM25's collection
 * statistics, and the count of memories without a scan), kept by every write transaction as its last statements but
 * the change log's.
 */
final class NamespacesTable {
    private NamespacesTable() {}

    /** Adds each namespace's change (memories, lexemes; negative for fewer), in namespace order. */
    static void add(Connection c, Map<String, long[]> changes) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO memfas_namespace_stats AS s (namespace, "
                + "memories, lexemes) VALUES (?, ?, ?) ON CONFLICT (namespace) DO UPDATE SET "
                + "memories = s.memories + excluded.memories, lexemes = s.lexemes + excluded.lexemes")) {
            for (Map.Entry<String, long[]> e : changes.entrySet()) {
                ps.setString(1, e.getKey());
                ps.setLong(2, e.getValue()[0]);
                ps.setLong(3, e.getValue()[1]);
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
