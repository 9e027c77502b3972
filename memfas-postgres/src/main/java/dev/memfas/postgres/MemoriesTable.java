package dev.memfas.postgres;

import dev.memfas.MemoryFilter;
import dev.memfas.spi.StoredMemory;
import dev.memfas.sql.SqlCodec;
import dev.memfas.sql.SqlFilters;
import dev.memfas.sql.SqlMemoryRow;
import dev.memfas.sql.SqlTables;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code memfas_memories} table: writing, reading, deleting and listing memories. A memory's {@code seq} is its
 * storage order, which {@code neighborhood} reads. Statements only; the store runs them in its transactions, and every
 * write reports what it changed to the transaction's {@link WriteLog}.
 */
enum MemoriesTable implements SqlTables.MemoryRows {
    INSTANCE;

    static final String COLUMNS = SqlMemoryRow.COLUMNS;

    /** Reads a row of {@link #COLUMNS}, from the memories or their versions. */
    static StoredMemory read(ResultSet rs) throws SQLException {
        return SqlMemoryRow.read(rs, PostgresDialect.INSTANCE);
    }

    static Array textArray(Connection c, Collection<String> values) throws SQLException {
        return c.createArrayOf("text", values.toArray());
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

    @Override
    public int delete(Connection c, String origin, String namespace, List<String> ids) throws SQLException {
        WriteLog log = new WriteLog();
        int deleted = delete(c, namespace, ids, log).size();
        log.memories(namespace, ids);
        log.finish(c, origin);
        return deleted;
    }

    /** Deletes the memories of the given ids (their vectors and token counts go with them), and their versions. */
    static List<String> delete(Connection c, String namespace, Collection<String> ids, WriteLog log)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM memfas_memories WHERE seq = ANY (ARRAY("
                + PostgresDialect.lookUpEach("SELECT seq FROM memfas_memories WHERE namespace = ? AND "
                        + "id = memfas_ids.id") + ")) RETURNING id")) {
            ps.setArray(1, textArray(c, ids));
            ps.setString(2, namespace);
            return deleted(c, ps, namespace, log);
        }
    }

    private static List<String> deleted(Connection c, PreparedStatement delete, String namespace, WriteLog log)
            throws SQLException {
        List<String> ids = new ArrayList<>();
        try (ResultSet rs = delete.executeQuery()) {
            while (rs.next()) {
                ids.add(rs.getString(1));
                log.counted(namespace, -1);
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

    /** Read from the namespaces table, which every write keeps counted. */
    @Override
    public long count(Connection c, String namespace) throws SQLException {
        return NamespacesTable.count(c, namespace);
    }

    @Override
    public Set<String> namespaces(Connection c) throws SQLException {
        return NamespacesTable.all(c);
    }
}
