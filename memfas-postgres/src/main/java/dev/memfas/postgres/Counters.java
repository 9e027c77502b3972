package dev.memfas.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The use counts kept on memory rows, which change without changing the memory (no version, no change-log entry):
 * accesses (how many, and the latest) and evidence. One statement each, over the ids in sorted order, so that two
 * processes counting the same memories lock their rows in the same order.
 */
final class Counters {
    private Counters() {}

    /** How often each id occurs, sorted by id; an id that occurs twice counts twice. */
    static Map<String, Integer> occurrences(Collection<String> ids) {
        Map<String, Integer> occurrences = new TreeMap<>();
        for (String id : ids) {
            occurrences.merge(Objects.requireNonNull(id, "id"), 1, Integer::sum);
        }
        return occurrences;
    }

    /** Adds each id's occurrences to its access count and moves its last access to {@code at} if later. */
    static void recordAccess(Connection c, String namespace, Map<String, Integer> occurrences, Instant at)
            throws SQLException {
        long micros = ChronoUnit.MICROS.between(Instant.EPOCH, at);
        try (PreparedStatement ps = c.prepareStatement("UPDATE memfas_memories m SET access_count = access_count + u.n, "
                + "last_access_us = greatest(coalesce(last_access_us, ?), ?) FROM unnest(?::text[], ?::int[]) "
                + "AS u (id, n) WHERE m.namespace = ? AND m.id = u.id")) {
            ps.setLong(1, micros);
            ps.setLong(2, micros);
            bindOccurrences(c, ps, 3, occurrences);
            ps.setString(5, namespace);
            ps.executeUpdate();
        }
    }

    /** Raises the evidence counts by the given occurrences. */
    static void recordEvidence(Connection c, String namespace, Map<String, Integer> occurrences) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE memfas_memories m SET evidence_count = evidence_count "
                + "+ u.n FROM unnest(?::text[], ?::int[]) AS u (id, n) WHERE m.namespace = ? AND m.id = u.id")) {
            bindOccurrences(c, ps, 1, occurrences);
            ps.setString(3, namespace);
            ps.executeUpdate();
        }
    }

    private static void bindOccurrences(Connection c, PreparedStatement ps, int at, Map<String, Integer> occurrences)
            throws SQLException {
        ps.setArray(at, c.createArrayOf("text", occurrences.keySet().toArray()));
        ps.setArray(at + 1, c.createArrayOf("integer", occurrences.values().toArray()));
    }
}
