package dev.memfas.postgres;

import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.Scope;
import dev.memfas.spi.StoredMemory;
import dev.memfas.sql.SqlCodec;
import dev.memfas.sql.SqlFilters;
import dev.memfas.sql.SqlTables;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code memfas_memories} table with its lexemes (the text search index): writing, reading, deleting and listing
 * memories. A memory's {@code seq} is its storage order, which {@code neighborhood} reads. Statements only; the store
 * runs them in its transactions, and every write reports what it changed to the transaction's {@link WriteLog}.
 */
enum MemoriesTable implements SqlTables.MemoryRows {
    INSTANCE;

    static final String COLUMNS = "namespace, id, text, source, kind, scope, tags, author, created_s, created_ns, "
            + "updated_s, updated_ns, pinned, importance, metadata, access_count, last_access_us, expires_s, "
            + "expires_ns, valid_from_s, valid_from_ns, valid_until_s, valid_until_ns, supersedes, superseded_by, "
            + "evidence_count, archived_s, archived_ns, recorded_s, recorded_ns";
    /**
     * How much of a memory's text its lexemes are read from: a tsvector holds at most 1 MB, and 256K chars of prose
     * make well under that. Longer memories are found by words of their first 256K chars.
     */
    static final int SEARCHED_CHARS = 1 << 18;

    /** Reads a row of {@link #COLUMNS}, from the memories or their versions. */
    static StoredMemory read(ResultSet rs) throws SQLException {
        Memory m = new Memory(
                rs.getString(2),
                rs.getString(1),
                SqlCodec.decodeText(rs.getBytes(3)),
                rs.getString(4),
                rs.getString(5),
                Scope.parse(rs.getString(6)),
                strings(rs.getArray(7)),
                rs.getString(8),
                SqlCodec.instant(rs.getLong(9), rs.getLong(10)),
                SqlCodec.instant(rs.getLong(11), rs.getLong(12)),
                rs.getBoolean(13),
                rs.getDouble(14),
                SqlCodec.decodeMetadata(rs.getBytes(15)),
                instant(rs, 18),
                instant(rs, 20),
                instant(rs, 22),
                strings(rs.getArray(24)),
                rs.getString(25),
                instant(rs, 27),
                instant(rs, 29));
        long lastAccess = rs.getLong(17);
        Instant last = rs.wasNull() ? null : Instant.EPOCH.plus(lastAccess, ChronoUnit.MICROS);
        return new StoredMemory(m, rs.getLong(16), last, rs.getLong(26));
    }

    private static List<String> strings(Array array) throws SQLException {
        return Arrays.asList((String[]) array.getArray());
    }

    /** The instant in columns {@code at} and {@code at + 1}, or null. */
    private static Instant instant(ResultSet rs, int at) throws SQLException {
        long seconds = rs.getLong(at);
        if (rs.wasNull()) {
            return null;
        }
        return SqlCodec.instant(seconds, rs.getLong(at + 1));
    }

    static Array textArray(Connection c, Collection<String> values) throws SQLException {
        return c.createArrayOf("text", values.toArray());
    }

    /** The memories of the given distinct ids that exist, by id. */
    @Override
    public Map<String, StoredMemory> byIds(Connection c, String namespace, List<String> unique) throws SQLException {
        Map<String, StoredMemory> out = new HashMap<>();
        try (PreparedStatement ps = Database.binary(c.prepareStatement(
                "SELECT " + COLUMNS + " FROM memfas_memories WHERE namespace = ? AND id = ANY (?)"))) {
            ps.setString(1, namespace);
            ps.setArray(2, textArray(c, unique));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    StoredMemory s = read(rs);
                    out.put(s.memory().id(), s);
                }
            }
        }
        return out;
    }

    /**
     * The memory and up to {@code radius} memories either side of it in storage order, in one statement; empty if it
     * is not stored.
     */
    @Override
    public List<StoredMemory> neighborhood(Connection c, String namespace, String id, int radius) throws SQLException {
        String target = "(SELECT seq FROM memfas_memories WHERE namespace = ? AND id = ?)";
        List<Map.Entry<Long, StoredMemory>> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "(SELECT " + COLUMNS + ", seq FROM memfas_memories WHERE namespace = ? AND seq < " + target
                        + " ORDER BY seq DESC LIMIT ?) UNION ALL (SELECT " + COLUMNS + ", seq FROM memfas_memories "
                        + "WHERE namespace = ? AND seq >= " + target + " ORDER BY seq LIMIT ?)")) {
            ps.setString(1, namespace);
            ps.setString(2, namespace);
            ps.setString(3, id);
            ps.setInt(4, radius);
            ps.setString(5, namespace);
            ps.setString(6, namespace);
            ps.setString(7, id);
            ps.setInt(8, radius + 1);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(Map.entry(rs.getLong(31), read(rs)));
                }
            }
        }
        rows.sort(Map.Entry.comparingByKey(Comparator.naturalOrder()));
        List<StoredMemory> window = new ArrayList<>(rows.size());
        rows.forEach(e -> window.add(e.getValue()));
        return window;
    }

    /**
     * The neighborhoods of several memories, in one statement: for each seed that exists, the memories either side of
     * it in storage order (two index range scans each), by seed.
     */
    static Map<String, List<StoredMemory>> neighborhoods(Connection c, String namespace, List<String> ids,
            int radius) throws SQLException {
        Map<String, List<Map.Entry<Long, StoredMemory>>> rows = new LinkedHashMap<>();
        ids.forEach(id -> rows.put(id, new ArrayList<>()));
        try (PreparedStatement ps = Database.binary(c.prepareStatement("SELECT w.*, t.id FROM unnest(?::text[]) "
                + "AS t (id) "
                + "JOIN memfas_memories s ON s.namespace = ? AND s.id = t.id CROSS JOIN LATERAL ("
                + "(SELECT " + COLUMNS + ", seq FROM memfas_memories WHERE namespace = s.namespace AND seq < s.seq "
                + "ORDER BY seq DESC LIMIT ?) UNION ALL (SELECT " + COLUMNS + ", seq FROM memfas_memories "
                + "WHERE namespace = s.namespace AND seq >= s.seq ORDER BY seq LIMIT ?)) AS w"))) {
            ps.setArray(1, textArray(c, ids));
            ps.setString(2, namespace);
            ps.setInt(3, radius);
            ps.setInt(4, radius + 1);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.get(rs.getString(32)).add(Map.entry(rs.getLong(31), read(rs)));
                }
            }
        }
        Map<String, List<StoredMemory>> out = new LinkedHashMap<>();
        rows.forEach((id, window) -> {
            if (!window.isEmpty()) {
                window.sort(Map.Entry.comparingByKey(Comparator.naturalOrder()));
                out.put(id, window.stream().map(Map.Entry::getValue).toList());
            }
        });
        return out;
    }

    /** Deletes the memories of the given ids (their vectors and token counts go with them), and their versions. */
    static List<String> delete(Connection c, String namespace, Collection<String> ids, WriteLog log)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM memfas_memories WHERE namespace = ? "
                + "AND id = ANY (?) RETURNING id, lexeme_count")) {
            ps.setString(1, namespace);
            ps.setArray(2, textArray(c, ids));
            return deleted(c, ps, namespace, log);
        }
    }

    private static List<String> deleted(Connection c, PreparedStatement delete, String namespace, WriteLog log)
            throws SQLException {
        List<String> ids = new ArrayList<>();
        try (ResultSet rs = delete.executeQuery()) {
            while (rs.next()) {
                ids.add(rs.getString(1));
                log.lexemes(namespace, -1, -rs.getLong(2));
            }
        }
        if (!ids.isEmpty()) {
            VersionsTable.delete(c, namespace, ids);
        }
        return ids;
    }

    /** The namespace's memories that the filter's columns select and the filter accepts, in storage order. */
    @Override
    public List<StoredMemory> matching(Connection c, String namespace, MemoryFilter filter) throws SQLException {
        return SqlFilters.matching(c, "SELECT " + COLUMNS + " FROM memfas_memories WHERE namespace = ?",
                " ORDER BY seq", namespace, filter, MemoriesTable::read);
    }

    /** Every memory's seq and text, for re-embedding, in storage order. */
    static Map<Long, String> allTexts(Connection c) throws SQLException {
        Map<Long, String> out = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT seq, text FROM memfas_memories ORDER BY seq")) {
            ps.setFetchSize(1000);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getLong(1), SqlCodec.decodeText(rs.getBytes(2)));
                }
            }
        }
        return out;
    }

    /** The distinct authors of one namespace's memories. */
    /** Read from the namespaces table, which every write keeps counted. */
    @Override
    public long count(Connection c, String namespace) throws SQLException {
        return NamespacesTable.count(c, namespace);
    }

    @Override
    public Set<String> namespaces(Connection c) throws SQLException {
        return NamespacesTable.all(c);
    }

    @Override
    public Set<String> authors(Connection c, String namespace) throws SQLException {
        Set<String> out = new TreeSet<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT DISTINCT author FROM memfas_memories WHERE namespace = ? AND author IS NOT NULL")) {
            ps.setString(1, namespace);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }
}
