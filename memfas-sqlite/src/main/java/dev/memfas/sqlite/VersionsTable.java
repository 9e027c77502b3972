package dev.memfas.sqlite;

import dev.memfas.sql.SqlCodec;
import dev.memfas.sql.SqlTables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code memory_versions} table: the earlier states of replaced memories, with the columns of {@code memories}
 * and a version number per memory from 1. A row is copied in the transaction that replaces or archives it, and the
 * versions are deleted with the memory. Statements only; the store runs them in its transactions and read connections.
 */
enum VersionsTable implements SqlTables.VersionRows {
    INSTANCE;

    /** The start of a copy of rows of memories (aliased {@code m}) into memory_versions, each as its next version. */
    private static final String COPY_AS_NEXT_VERSION = "INSERT INTO memory_versions (version, " + MemoriesTable.COLUMNS
            + ") SELECT (SELECT COALESCE(MAX(v.version), 0) + 1 FROM memory_versions v WHERE v.namespace = m.namespace"
            + " AND v.id = m.id), m." + String.join(", m.", MemoriesTable.COLUMNS.split(", "));
    /** Copies the row {@code rowid} of memories into memory_versions as its next version. */
    static final String KEEP_VERSION = COPY_AS_NEXT_VERSION + " FROM memories m WHERE m.rowid = ?";
    /** Deletes the versions of the memory at a rowid of memories; run before the row itself is deleted. */
    static final String DELETE_OF_ROW = "DELETE FROM memory_versions WHERE (namespace, id) = "
            + "(SELECT namespace, id FROM memories WHERE rowid = ?)";

    /** The live memories of the namespace whose ids are in the temporary table {@code archiving}. */
    private static final String LIVE_ARCHIVING = " FROM temp.archiving a JOIN memories m ON m.namespace = ?"
            + " AND m.id = a.id WHERE m.archived_s IS NULL";
    /** Copies each live memory of the {@code archiving} table into memory_versions as its next version. */
    private static final String KEEP_ARCHIVING = COPY_AS_NEXT_VERSION + LIVE_ARCHIVING;

    /**
     * Marks the live memories of the given ids archived at {@code at} (also their {@code updatedAt}), keeping each
     * one's state before as a version. The ids go into a temporary table in one batch, and the versions and marks are
     * two statements over it: a first maintenance archives tens of thousands of memories at once, and three statements
     * per memory (find, keep, mark) made most of its time.
     *
     * @param ids distinct ids
     * @return the ids archived, in order
     */
    @Override
    public List<String> archive(Connection c, String namespace, List<String> ids, Instant at) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TEMP TABLE IF NOT EXISTS archiving"
                    + " (position INTEGER PRIMARY KEY, id TEXT NOT NULL)");
            s.executeUpdate("DELETE FROM temp.archiving");
        }
        try (PreparedStatement add = c.prepareStatement("INSERT INTO temp.archiving (position, id) VALUES (?, ?)")) {
            for (int i = 0; i < ids.size(); i++) {
                add.setInt(1, i);
                add.setString(2, ids.get(i));
                add.addBatch();
            }
            add.executeBatch();
        }
        List<String> archived = new ArrayList<>();
        try (PreparedStatement find = c.prepareStatement("SELECT a.id" + LIVE_ARCHIVING + " ORDER BY a.position")) {
            find.setString(1, namespace);
            try (ResultSet rs = find.executeQuery()) {
                while (rs.next()) {
                    archived.add(rs.getString(1));
                }
            }
        }
        if (!archived.isEmpty()) {
            try (PreparedStatement keep = c.prepareStatement(KEEP_ARCHIVING);
                    PreparedStatement mark = c.prepareStatement("UPDATE memories SET archived_s = ?, archived_ns = ?,"
                            + " updated_s = ?, updated_ns = ? WHERE namespace = ? AND archived_s IS NULL"
                            + " AND id IN (SELECT id FROM temp.archiving)")) {
                keep.setString(1, namespace);
                keep.executeUpdate();
                SqlCodec.setInstant(mark, 1, at);
                SqlCodec.setInstant(mark, 3, at);
                mark.setString(5, namespace);
                mark.executeUpdate();
            }
        }
        try (Statement s = c.createStatement()) {
            s.executeUpdate("DELETE FROM temp.archiving");
        }
        return archived;
    }
}
