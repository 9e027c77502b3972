package dev.memfas.sqlite;

import dev.memfas.Memory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code memory_versions} table: the earlier states of replaced memories, with the columns of {@code memories}
 * and a version number per memory from 1. A row is copied in the transaction that replaces or archives it, and the
 * versions are deleted with the memory. Statements only; the store runs them in its transactions and read connections.
 */
final class VersionsTable {
    /** Copies the row {@code rowid} of memories into memory_versions as its next version. */
    static final String KEEP_VERSION = "INSERT INTO memory_versions (version, " + MemoriesTable.COLUMNS + ") SELECT "
            + "(SELECT COALESCE(MAX(v.version), 0) + 1 FROM memory_versions v WHERE v.namespace = m.namespace "
            + "AND v.id = m.id), " + MemoriesTable.COLUMNS + " FROM memories m WHERE m.rowid = ?";
    /** Deletes the versions of the memory at a rowid of memories; run before the row itself is deleted. */
    static final String DELETE_OF_ROW = "DELETE FROM memory_versions WHERE (namespace, id) = "
            + "(SELECT namespace, id FROM memories WHERE rowid = ?)";

    private VersionsTable() {}

    /** The earlier states of one memory, oldest first. */
    static List<Memory> versions(Connection c, String namespace, String id) throws SQLException {
        List<Memory> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT " + MemoriesTable.COLUMNS
                + " FROM memory_versions WHERE namespace = ? AND id = ? ORDER BY version")) {
            ps.setString(1, namespace);
            ps.setString(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(MemoriesTable.read(rs).memory());
                }
            }
        }
        return out;
    }

    /**
     * Marks the live memories of the given ids archived at {@code at} (also their {@code updatedAt}), keeping each
     * one's state before as a version.
     *
     * @return the ids archived, in order
     */
    static List<String> archive(Connection c, String namespace, List<String> ids, Instant at) throws SQLException {
        List<String> archived = new ArrayList<>();
        try (PreparedStatement find = c.prepareStatement(
                        "SELECT rowid FROM memories WHERE namespace = ? AND id = ? AND archived_s IS NULL");
                PreparedStatement keep = c.prepareStatement(KEEP_VERSION);
                PreparedStatement mark = c.prepareStatement("UPDATE memories SET archived_s = ?, archived_ns = ?, "
                        + "updated_s = ?, updated_ns = ? WHERE rowid = ?")) {
            for (String id : ids) {
                long rowid = MemoriesTable.rowid(find, namespace, id);
                if (rowid < 0) {
                    continue;
                }
                keep.setLong(1, rowid);
                keep.executeUpdate();
                mark.setLong(1, at.getEpochSecond());
                mark.setInt(2, at.getNano());
                mark.setLong(3, at.getEpochSecond());
                mark.setInt(4, at.getNano());
                mark.setLong(5, rowid);
                mark.executeUpdate();
                archived.add(id);
            }
        }
        return archived;
    }
}
