package dev.memfas.sqlite;

import dev.memfas.sql.SqlTables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;
import java.util.SortedMap;

/**
 * The use counts kept on memory rows, which change without changing the memory (no version, no change-log entry):
 * accesses (how many, and the latest) and evidence. One batch of an update per id; the store runs them in its
 * transactions.
 */
enum Counters implements SqlTables.Counters {
    INSTANCE;

    @Override
    public void recordAccess(Connection c, String namespace, SortedMap<String, Integer> occurrences,
            long micros) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE memories SET access_count = access_count + ?, "
                + "last_access_us = max(coalesce(last_access_us, ?), ?) WHERE namespace = ? AND id = ?")) {
            for (Map.Entry<String, Integer> e : occurrences.entrySet()) {
                ps.setInt(1, e.getValue());
                ps.setLong(2, micros);
                ps.setLong(3, micros);
                ps.setString(4, namespace);
                ps.setString(5, e.getKey());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    @Override
    public void recordEvidence(Connection c, String namespace, SortedMap<String, Integer> occurrences)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE memories SET evidence_count = evidence_count + ? WHERE namespace = ? AND id = ?")) {
            for (Map.Entry<String, Integer> e : occurrences.entrySet()) {
                ps.setInt(1, e.getValue());
                ps.setString(2, namespace);
                ps.setString(3, e.getKey());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }
}
