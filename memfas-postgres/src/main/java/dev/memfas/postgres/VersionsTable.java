package dev.memfas.postgres;

import dev.memfas.sql.SqlCodec;
import dev.memfas.sql.SqlTables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The {@code memfas_versions} table: the earlier states of replaced memories, with the columns of the memories and a
 * version number per memory from 1. A row is copied in the transaction that replaces or archives it (which holds the
 * memory's row lock, so two writers never number the same version), and the versions are deleted with the memory.
 */
enum VersionsTable implements SqlTables.VersionRows {
    INSTANCE;

    /** Copies the memory at a seq into the versions as its next version. */
    static final String KEEP_VERSION = "INSERT INTO memfas_versions (version, " + MemoriesTable.COLUMNS + ") SELECT "
            + "(SELECT coalesce(max(v.version), 0) + 1 FROM memfas_versions v WHERE v.namespace = m.namespace "
            + "AND v.id = m.id), " + MemoriesTable.COLUMNS + " FROM memfas_memories m WHERE m.seq = ?";

    static void delete(Connection c, String namespace, Collection<String> ids) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "DELETE FROM memfas_versions WHERE namespace = ? AND id = ANY (?)")) {
            ps.setString(1, namespace);
            ps.setArray(2, MemoriesTable.textArray(c, ids));
            ps.executeUpdate();
        }
    }

    /**
     * Marks the live memories of the given ids archived at {@code at} (also their {@code updatedAt}), keeping each
     * one's state before as a version.
     *
     * @return the ids archived, in the order given
     */
    @Override
    public List<String> archive(Connection c, String namespace, List<String> ids, Instant at) throws SQLException {
        List<String> archived = new ArrayList<>();
        try (PreparedStatement find = c.prepareStatement("SELECT seq FROM memfas_memories WHERE namespace = ? "
                        + "AND id = ? AND archived_s IS NULL FOR UPDATE");
                PreparedStatement keep = c.prepareStatement(KEEP_VERSION);
                PreparedStatement mark = c.prepareStatement("UPDATE memfas_memories SET archived_s = ?, "
                        + "archived_ns = ?, updated_s = ?, updated_ns = ? WHERE seq = ?")) {
            SqlCodec.setInstant(mark, 1, at);
            SqlCodec.setInstant(mark, 3, at);
            for (String id : ids) {
                find.setString(1, namespace);
                find.setString(2, id);
                long seq;
                try (ResultSet rs = find.executeQuery()) {
                    if (!rs.next()) {
                        continue;
                    }
                    seq = rs.getLong(1);
                }
                keep.setLong(1, seq);
                keep.executeUpdate();
                mark.setLong(5, seq);
                mark.executeUpdate();
                archived.add(id);
            }
        }
        return archived;
    }
}
