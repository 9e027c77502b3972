package dev.memfas.sqlite;

import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.spi.Embeddings;
import dev.memfas.spi.StoredMemory;
import dev.memfas.sql.SqlCodec;
import dev.memfas.sql.SqlFilters;
import dev.memfas.sql.SqlMemoryRow;
import dev.memfas.sql.SqlTables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code memories} table: writing, reading, deleting and listing memories. A memory's rowid is its storage order, which
 * {@code neighborhood} reads. Statements only; the store runs them in its transactions and read connections.
 */
enum MemoriesTable implements SqlTables.MemoryRows {
    INSTANCE;

    /** How many ids one {@code IN (...)} list binds at most. */
    static final int IN_CHUNK = 500;
    static final String COLUMNS = SqlMemoryRow.COLUMNS;

    /** {@code n} comma-separated placeholders, for an {@code IN (...)} list. */
    static String placeholders(int n) {
        return String.join(", ", Collections.nCopies(n, "?"));
    }

    /** Writes memories (and their text to the full-text index) in one transaction, one statement of each kind. */
    /**
     * Writes a batch of memories with their vectors (none when {@code embeddings} is empty); a memory that replaces a
     * row drops the row's cached token counts, counted for the text it had.
     */
    static void putAll(Connection c, List<Memory> memories, Embeddings embeddings) throws SQLException {
        try (Writer rows = new Writer(c);
                VectorsTable.Writer vectors = new VectorsTable.Writer(c);
                PreparedStatement countsDelete = c.prepareStatement("DELETE FROM token_counts WHERE rowid = ?")) {
            for (int i = 0; i < memories.size(); i++) {
                long put = rows.put(memories.get(i));
                long rowid = Writer.rowid(put);
                if (Writer.wasReplaced(put)) {
                    countsDelete.setLong(1, rowid);
                    countsDelete.executeUpdate();
                }
                vectors.put(rowid, embeddings.isEmpty() ? null : embeddings.vector(i));
            }
        }
    }

    static final class Writer implements AutoCloseable {
        private final PreparedStatement find;
        private final PreparedStatement insert;
        private final PreparedStatement update;
        private final PreparedStatement keepVersion;

        Writer(Connection c) throws SQLException {
            find = c.prepareStatement("SELECT rowid FROM memories WHERE namespace = ? AND id = ?");
            insert = c.prepareStatement("INSERT INTO memories (namespace, id, text, source, kind, scope, tags, author, "
                    + "created_s, created_ns, updated_s, updated_ns, pinned, importance, metadata, expires_s, "
                    + "expires_ns, valid_from_s, valid_from_ns, valid_until_s, valid_until_ns, supersedes, superseded_by, "
                    + "archived_s, archived_ns, recorded_s, recorded_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                    + " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    Statement.RETURN_GENERATED_KEYS);
            update = c.prepareStatement("UPDATE memories SET text = ?, source = ?, kind = ?, scope = ?, tags = ?, "
                    + "author = ?, created_s = ?, created_ns = ?, updated_s = ?, updated_ns = ?, pinned = ?, "
                    + "importance = ?, metadata = ?, expires_s = ?, expires_ns = ?, valid_from_s = ?, valid_from_ns = ?, "
                    + "valid_until_s = ?, valid_until_ns = ?, supersedes = ?, superseded_by = ?, archived_s = ?, "
                    + "archived_ns = ?, recorded_s = ?, recorded_ns = ? WHERE rowid = ?");
            keepVersion = c.prepareStatement(VersionsTable.KEEP_VERSION);
        }

        /**
         * Inserts the memory, or replaces the one with its namespace and id (keeping its rowid and access counts, and
         * its state before as a version).
         *
         * @return the rowid, negated minus one if the memory replaced another ({@link #wasReplaced}, {@link #rowid})
         */
        long put(Memory m) throws SQLException {
            long rowid = MemoriesTable.rowid(find, m.namespace(), m.id());
            boolean replaced = rowid >= 0;
            if (!replaced) {
                insert.setString(1, m.namespace());
                insert.setString(2, m.id());
                bindFields(insert, 3, m);
                insert.executeUpdate();
                try (ResultSet keys = insert.getGeneratedKeys()) {
                    keys.next();
                    rowid = keys.getLong(1);
                }
            } else {
                keepVersion.setLong(1, rowid);
                keepVersion.executeUpdate();
                bindFields(update, 1, m);
                update.setLong(26, rowid);
                update.executeUpdate();
            }
            return replaced ? -rowid - 1 : rowid;
        }

        static boolean wasReplaced(long put) {
            return put < 0;
        }

        static long rowid(long put) {
            return put < 0 ? -put - 1 : put;
        }

        @Override
        public void close() throws SQLException {
            for (PreparedStatement ps : List.of(find, insert, update, keepVersion)) {
                ps.close();
            }
        }
    }

    private static void bindFields(PreparedStatement ps, int at, Memory m) throws SQLException {
        ps.setBytes(at, SqlCodec.encodeText(m.text()));
        ps.setString(at + 1, m.source());
        ps.setString(at + 2, m.kind());
        ps.setString(at + 3, m.scope().toString());
        ps.setString(at + 4, Codec.joinIds(m.tags()));
        ps.setString(at + 5, m.author());
        SqlCodec.setInstant(ps, at + 6, m.createdAt());
        SqlCodec.setInstant(ps, at + 8, m.updatedAt());
        ps.setInt(at + 10, m.pinned() ? 1 : 0);
        ps.setDouble(at + 11, m.importance());
        ps.setBytes(at + 12, SqlCodec.encodeMetadata(m.metadata()));
        SqlCodec.setInstant(ps, at + 13, m.expiresAt());
        SqlCodec.setInstant(ps, at + 15, m.validFrom());
        SqlCodec.setInstant(ps, at + 17, m.validUntil());
        ps.setString(at + 19, Codec.joinIds(m.supersedes()));
        ps.setString(at + 20, m.supersededBy());
        SqlCodec.setInstant(ps, at + 21, m.archivedAt());
        SqlCodec.setInstant(ps, at + 23, m.recordedAt());
    }

    /** The rowid of the memory, or -1. */
    static long rowid(PreparedStatement find, String namespace, String id) throws SQLException {
        find.setString(1, namespace);
        find.setString(2, id);
        try (ResultSet rs = find.executeQuery()) {
            return rs.next() ? rs.getLong(1) : -1;
        }
    }

    /** The rowids of the memories that exist, of the given ids, in order. */
    static List<Long> rowids(Connection c, String namespace, Iterable<String> ids) throws SQLException {
        List<Long> rowids = new ArrayList<>();
        try (PreparedStatement find = c.prepareStatement("SELECT rowid FROM memories WHERE namespace = ? AND id = ?")) {
            for (String id : ids) {
                long rowid = rowid(find, namespace, id);
                if (rowid >= 0) {
                    rowids.add(rowid);
                }
            }
        }
        return rowids;
    }

    /** Reads a row of {@link #COLUMNS}, from the memories or their versions. */
    static StoredMemory read(ResultSet rs) throws SQLException {
        return SqlMemoryRow.read(rs, SqliteDialect.INSTANCE);
    }

    /** The memory and up to {@code radius} memories either side of it in storage order; empty if it is not stored. */
    @Override
    public List<StoredMemory> neighborhood(Connection c, String namespace, String id, int radius) throws SQLException {
        long rowid;
        try (PreparedStatement find = c.prepareStatement("SELECT rowid FROM memories WHERE namespace = ? AND id = ?")) {
            rowid = rowid(find, namespace, id);
        }
        if (rowid < 0) {
            return List.of();
        }
        List<StoredMemory> before = new ArrayList<>(radius);
        List<StoredMemory> rest = new ArrayList<>(radius + 1);
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS
                + " FROM memories WHERE namespace = ? AND rowid < ? ORDER BY rowid DESC LIMIT ?")) {
            ps.setString(1, namespace);
            ps.setLong(2, rowid);
            ps.setInt(3, radius);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    before.add(read(rs));
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS
                + " FROM memories WHERE namespace = ? AND rowid >= ? ORDER BY rowid LIMIT ?")) {
            ps.setString(1, namespace);
            ps.setLong(2, rowid);
            ps.setInt(3, radius + 1);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rest.add(read(rs));
                }
            }
        }
        List<StoredMemory> window = new ArrayList<>(before.size() + rest.size());
        for (int i = before.size() - 1; i >= 0; i--) {
            window.add(before.get(i));
        }
        window.addAll(rest);
        return window;
    }

    @Override
    public int delete(Connection c, String origin, String namespace, List<String> ids) throws SQLException {
        List<Long> rowids = rowids(c, namespace, ids);
        deleteRows(c, rowids);
        ChangeLog.appendMemories(c, origin, namespace, ids);
        return rowids.size();
    }

    /** Deletes rows from the memories, their earlier versions, vectors and token counts. */
    static void deleteRows(Connection c, List<Long> rowids) throws SQLException {
        try (PreparedStatement versions = c.prepareStatement(VersionsTable.DELETE_OF_ROW);
                PreparedStatement memory = c.prepareStatement("DELETE FROM memories WHERE rowid = ?");
                PreparedStatement vector = c.prepareStatement("DELETE FROM vectors WHERE rowid = ?");
                PreparedStatement counts = c.prepareStatement("DELETE FROM token_counts WHERE rowid = ?")) {
            for (long rowid : rowids) {
                for (PreparedStatement ps : List.of(versions, memory, vector, counts)) {
                    ps.setLong(1, rowid);
                    ps.executeUpdate();
                }
            }
        }
    }

    /** The namespace's memories that the filter's columns select and the filter accepts, in storage order. */
    @Override
    public List<StoredMemory> matching(Connection c, String namespace, MemoryFilter filter) throws SQLException {
        return SqlFilters.matching(c, "SELECT " + COLUMNS + " FROM memories WHERE namespace = ?", "", namespace,
                filter, MemoriesTable::read);
    }

    @Override
    public long count(Connection c, String namespace) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM memories WHERE namespace = ?")) {
            ps.setString(1, namespace);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.getLong(1);
            }
        }
    }

    /** Every namespace with a memory or a trigger, sorted. */
    @Override
    public Set<String> namespaces(Connection c) throws SQLException {
        Set<String> out = new TreeSet<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT DISTINCT namespace FROM memories UNION SELECT DISTINCT namespace FROM triggers")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return Set.copyOf(out);
    }

    /** Every memory's rowid and text, for re-embedding. */
    static void allTexts(Connection c, List<Long> rowids, List<String> texts) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT rowid, text FROM memories")) {
            while (rs.next()) {
                rowids.add(rs.getLong(1));
                texts.add(SqlCodec.decodeText(rs.getBytes(2)));
            }
        }
    }

    /** Every namespace with a memory. */
    static List<String> memoryNamespaces(Connection c) throws SQLException {
        List<String> namespaces = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT DISTINCT namespace FROM memories")) {
            while (rs.next()) {
                namespaces.add(rs.getString(1));
            }
        }
        return namespaces;
    }
}
