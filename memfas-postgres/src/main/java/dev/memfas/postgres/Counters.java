package dev.memfas.postgres;

import dev.memfas.sql.SqlTables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;
import java.util.SortedMap;

/**
 * The use counts kept on memory rows, which change without changing the memory (no version, no change-log entry):
 * accesses (how many, and the latest) and evidence. Each first locks the rows it will change in the order of their ids
 * ({@code SELECT ... ORDER BY id FOR UPDATE}), then changes them, the two statements sent together in one round trip:
 * an {@code UPDATE ... FROM unnest(...)} alone locks rows in whatever order its plan meets them, and two turns
 * counting the same memories in two orders deadlocked (6 of 1,200 transactions of eight threads in
 * {@code ConcurrentTurnsTest}, each undone and run again).
 */
enum Counters implements SqlTables.Counters {
    INSTANCE;

    @Override
    public void recordAccess(Connection c, String namespace, SortedMap<String, Integer> occurrences,
            long micros) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(LOCK_IN_ID_ORDER + "UPDATE memfas_memories m SET access_count"
                + " = access_count + u.n, last_access_us = greatest(coalesce(last_access_us, ?), ?) FROM "
                + "unnest(?::text[], ?::int[]) AS u (id, n) WHERE m.namespace = ? AND m.id = u.id")) {
            bindLock(c, ps, namespace, occurrences);
            ps.setLong(3, micros);
            ps.setLong(4, micros);
            bindOccurrences(c, ps, 5, occurrences);
            ps.setString(7, namespace);
            ps.execute();
        }
    }

    @Override
    public void recordEvidence(Connection c, String namespace, SortedMap<String, Integer> occurrences)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(LOCK_IN_ID_ORDER + "UPDATE memfas_memories m SET evidence_count"
                + " = evidence_count + u.n FROM unnest(?::text[], ?::int[]) AS u (id, n) WHERE m.namespace = ? "
                + "AND m.id = u.id")) {
            bindLock(c, ps, namespace, occurrences);
            bindOccurrences(c, ps, 3, occurrences);
            ps.setString(5, namespace);
            ps.execute();
        }
    }

    /**
     * Locks the namespace's rows of the ids (parameters 1 and 2), one after the other in the order of their ids: run
     * to its end, as the driver runs a statement without a fetch size, before the statement after it.
     */
    private static final String LOCK_IN_ID_ORDER = "SELECT 1 FROM memfas_memories WHERE namespace = ? "
            + "AND id = ANY(?::text[]) ORDER BY id FOR UPDATE; ";

    private static void bindLock(Connection c, PreparedStatement ps, String namespace,
            SortedMap<String, Integer> occurrences) throws SQLException {
        ps.setString(1, namespace);
        ps.setArray(2, c.createArrayOf("text", occurrences.keySet().toArray()));
    }

    private static void bindOccurrences(Connection c, PreparedStatement ps, int at, Map<String, Integer> occurrences)
            throws SQLException {
        ps.setArray(at, c.createArrayOf("text", occurrences.keySet().toArray()));
        ps.setArray(at + 1, c.createArrayOf("integer", occurrences.values().toArray()));
    }
}
