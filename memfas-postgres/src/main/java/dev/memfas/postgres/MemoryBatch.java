package dev.memfas.postgres;

import dev.memfas.Memory;
import dev.memfas.spi.Embeddings;
import dev.memfas.sql.SqlCodec;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Writes a batch of memories and their vectors in a few statements, whatever its size: one per namespace that reads
 * and locks the memories that exist, one that inserts all the new ones (arrays unnested into rows), one for the
 * vectors; only a memory that replaces another takes statements of its own (its old state kept as a version). A memory
 * another transaction inserted meanwhile is replaced like one that existed. Statements only; the store runs them in its
 * transaction, and each memory written is reported to the transaction's {@link WriteLog}.
 */
final class MemoryBatch {
    /** The columns a write sets, after namespace and id, in {@link #bindFields} order. */
    private static final String FIELDS = "text, source, kind, scope, tags, author, created_s, created_ns, updated_s, "
            + "updated_ns, pinned, importance, metadata, expires_s, expires_ns, valid_from_s, valid_from_ns, "
            + "valid_until_s, valid_until_ns, supersedes, superseded_by, archived_s, archived_ns, recorded_s, "
            + "recorded_ns";
    private static final String[] FIELD_NAMES = FIELDS.split(", ");
    private static final int FIELD_COUNT = FIELD_NAMES.length;
    /** The array type of each field, in order, for the insert that unnests them. */
    private static final String[] TYPES = {"bytea", "text", "text", "text", "text", "text", "bigint", "integer",
        "bigint", "integer", "boolean", "float8", "bytea", "bigint", "integer", "bigint", "integer", "bigint", "integer",
        "text", "text", "bigint", "integer", "bigint", "integer"};
    /** Lists of identifiers travel joined by U+001F, which identifiers cannot hold, and are split in the statement. */
    private static final char SEPARATOR = '\u001f';

    private MemoryBatch() {}

    static void putAll(Connection c, List<Memory> memories, Embeddings embeddings, WriteLog log) throws SQLException {
        Map<String, Map<String, Long>> existing = lockExisting(c, memories);
        long[] seqs = new long[memories.size()];
        List<Integer> fresh = new ArrayList<>();
        for (int i = 0; i < memories.size(); i++) {
            Memory m = memories.get(i);
            Long seq = existing.get(m.namespace()).get(m.id());
            if (seq == null) {
                fresh.add(i);
            } else {
                seqs[i] = seq;
            }
        }
        Map<Integer, Long> inserted = insert(c, memories, fresh, log);
        List<Integer> replaced = new ArrayList<>();
        for (int i = 0; i < memories.size(); i++) {
            Long seq = inserted.get(i);
            if (seq != null) {
                seqs[i] = seq;
            } else {
                replaced.add(i);
            }
        }
        for (int i : replaced) {
            seqs[i] = replace(c, memories.get(i), log);
        }
        VectorsTable.putAll(c, memories, seqs, embeddings, replaced);
        for (Memory m : memories) {
            log.memory(m.namespace(), m.id());
        }
    }

    /**
     * The memories of the batch that exist, locked: by namespace and id, their seq. Each namespace's ids are locked in
     * sorted order, one by one through the {@code (namespace, id)} index ({@link PostgresDialect#lookUpEach}), so that
     * two writers of the same memories lock them in the same order.
     */
    private static Map<String, Map<String, Long>> lockExisting(Connection c, List<Memory> memories)
            throws SQLException {
        Map<String, Set<String>> ids = new LinkedHashMap<>();
        for (Memory m : memories) {
            ids.computeIfAbsent(m.namespace(), k -> new TreeSet<>()).add(m.id());
        }
        Map<String, Map<String, Long>> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(PostgresDialect.lookUpEach("SELECT id, seq FROM memfas_memories "
                + "WHERE namespace = ? AND id = memfas_ids.id FOR UPDATE"))) {
            for (Map.Entry<String, Set<String>> e : ids.entrySet()) {
                Map<String, Long> rows = new HashMap<>();
                out.put(e.getKey(), rows);
                ps.setArray(1, MemoriesTable.textArray(c, e.getValue()));
                ps.setString(2, e.getKey());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.put(rs.getString(1), rs.getLong(2));
                    }
                }
            }
        }
        return out;
    }

    /**
     * Inserts the new memories in one statement; returns the seq of each inserted, by index. One another transaction
     * inserted meanwhile is not returned (ON CONFLICT DO NOTHING waited for that transaction and left its row).
     */
    private static Map<Integer, Long> insert(Connection c, List<Memory> memories, List<Integer> fresh, WriteLog log)
            throws SQLException {
        Map<Integer, Long> inserted = new HashMap<>();
        if (fresh.isEmpty()) {
            return inserted;
        }
        int n = fresh.size();
        Object[][] columns = new Object[FIELD_COUNT + 2][n];
        for (int k = 0; k < n; k++) {
            Memory m = memories.get(fresh.get(k));
            columns[0][k] = m.namespace();
            columns[1][k] = m.id();
            Object[] fields = fields(m);
            for (int f = 0; f < FIELD_COUNT; f++) {
                columns[2 + f][k] = fields[f];
            }
        }
        StringBuilder unnest = new StringBuilder("?::text[], ?::text[]");
        StringBuilder select = new StringBuilder("u.namespace, u.id");
        StringBuilder names = new StringBuilder("namespace, id");
        String[] fieldNames = FIELD_NAMES;
        for (int f = 0; f < FIELD_COUNT; f++) {
            unnest.append(", ?::").append(TYPES[f]).append("[]");
            names.append(", ").append(fieldNames[f]);
            boolean list = fieldNames[f].equals("tags") || fieldNames[f].equals("supersedes");
            select.append(", ").append(list ? "CASE WHEN u." + fieldNames[f] + " = '' THEN '{}'::text[] ELSE "
                    + "string_to_array(u." + fieldNames[f] + ", chr(31)) END" : "u." + fieldNames[f]);
        }
        String sql = "INSERT INTO memfas_memories (namespace, id, " + FIELDS + ") SELECT "
                + select + " FROM unnest(" + unnest + ") WITH ORDINALITY AS u (" + names + ", ordinality) "
                + "ORDER BY u.ordinality ON CONFLICT (namespace, id) DO NOTHING RETURNING id, namespace, seq";
        Map<String, Integer> index = new HashMap<>();
        for (int k = 0; k < n; k++) {
            Memory m = memories.get(fresh.get(k));
            index.put(m.namespace() + SEPARATOR + m.id(), fresh.get(k));
        }
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setArray(1, c.createArrayOf("text", columns[0]));
            ps.setArray(2, c.createArrayOf("text", columns[1]));
            for (int f = 0; f < FIELD_COUNT; f++) {
                ps.setArray(3 + f, array(c, TYPES[f], columns[2 + f]));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String namespace = rs.getString(2);
                    inserted.put(index.get(namespace + SEPARATOR + rs.getString(1)), rs.getLong(3));
                    log.counted(namespace, 1);
                }
            }
        }
        return inserted;
    }

    private static Array array(Connection c, String type, Object[] values) throws SQLException {
        if (type.equals("bytea")) {
            byte[][] bytes = new byte[values.length][];
            for (int i = 0; i < values.length; i++) {
                bytes[i] = (byte[]) values[i];
            }
            return c.createArrayOf("bytea", bytes);
        }
        return c.createArrayOf(type, values);
    }

    /** Replaces the memory stored under its namespace and id, keeping its old state as a version; returns its seq. */
    private static long replace(Connection c, Memory m, WriteLog log) throws SQLException {
        long seq;
        try (PreparedStatement find = c.prepareStatement(
                "SELECT seq FROM memfas_memories WHERE namespace = ? AND id = ? FOR UPDATE")) {
            find.setString(1, m.namespace());
            find.setString(2, m.id());
            try (ResultSet rs = find.executeQuery()) {
                rs.next(); // it exists: locked before, or inserted by a transaction that committed since
                seq = rs.getLong(1);
            }
        }
        try (PreparedStatement keep = c.prepareStatement(VersionsTable.KEEP_VERSION)) {
            keep.setLong(1, seq);
            keep.executeUpdate();
        }
        try (PreparedStatement drop = c.prepareStatement("DELETE FROM memfas_token_counts WHERE seq = ?")) {
            drop.setLong(1, seq);
            drop.executeUpdate();
        }
        String placeholders = String.join(", ", Collections.nCopies(FIELD_COUNT, "?"));
        try (PreparedStatement update = c.prepareStatement("UPDATE memfas_memories SET (" + FIELDS + ") = ROW("
                + placeholders + ") WHERE seq = ?")) {
            bindFields(c, update, 1, m);
            update.setLong(1 + FIELD_COUNT, seq);
            update.executeUpdate();
        }
        return seq;
    }

    /** The values of {@link #FIELDS}, lists of identifiers joined by U+001F. */
    private static Object[] fields(Memory m) {
        return new Object[] {SqlCodec.encodeText(m.text()), m.source(), m.kind(), m.scope().toString(),
            String.join(String.valueOf(SEPARATOR), m.tags()), m.author(), m.createdAt().getEpochSecond(),
            m.createdAt().getNano(), m.updatedAt().getEpochSecond(), m.updatedAt().getNano(), m.pinned(),
            m.importance(), SqlCodec.encodeMetadata(m.metadata()), seconds(m.expiresAt()), nanos(m.expiresAt()),
            seconds(m.validFrom()), nanos(m.validFrom()), seconds(m.validUntil()), nanos(m.validUntil()),
            String.join(String.valueOf(SEPARATOR), m.supersedes()), m.supersededBy(), seconds(m.archivedAt()),
            nanos(m.archivedAt()), seconds(m.recordedAt()), nanos(m.recordedAt())};
    }

    private static Long seconds(Instant instant) {
        return instant == null ? null : instant.getEpochSecond();
    }

    private static Integer nanos(Instant instant) {
        return instant == null ? null : instant.getNano();
    }

    private static void bindFields(Connection c, PreparedStatement ps, int at, Memory m) throws SQLException {
        Object[] fields = fields(m);
        for (int f = 0; f < FIELD_COUNT; f++) {
            Object value = fields[f];
            int p = at + f;
            String column = FIELD_NAMES[f];
            if (column.equals("tags") || column.equals("supersedes")) {
                List<String> list = column.equals("tags") ? m.tags() : m.supersedes();
                ps.setArray(p, MemoriesTable.textArray(c, list));
            } else if (value == null) {
                ps.setNull(p, TYPES[f].equals("integer") ? Types.INTEGER : TYPES[f].equals("bigint") ? Types.BIGINT
                        : Types.VARCHAR);
            } else {
                ps.setObject(p, value);
            }
        }
    }
}
