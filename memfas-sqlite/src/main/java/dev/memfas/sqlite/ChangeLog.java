package dev.memfas.sqlite;

import dev.memfas.spi.SharedStore.Change;
import dev.memfas.spi.SharedStore.Changes;
import dev.memfas.spi.SharedStore.Kind;
import dev.memfas.sql.SqlTables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code changes} table, which other processes catch up from ({@link dev.memfas.spi.SharedStore}): one row per
 * memory written or deleted, per namespace whose triggers changed, per namespace re-embedded, each with the store object
 * that wrote it. Statements only; the store runs them in its transactions and read connections.
 */
enum ChangeLog implements SqlTables.ChangeRows {
    INSTANCE;

    /**
     * How many changes the log keeps: a process that falls further behind rebuilds its indexes from the store. A
     * hundred thousand rows are a few megabytes; a reader checks before each turn, so it is never that far behind.
     */
    static final long KEPT = 100_000;

    @Override
    public void logWhole(Connection c, String origin, String namespace, Kind kind) throws SQLException {
        append(c, origin, namespace, kind, null);
    }

    @Override
    public void logMemories(Connection c, String origin, String namespace, List<String> ids) throws SQLException {
        appendMemories(c, origin, namespace, ids);
    }

    /**
     * Appends a change of each memory in the caller's write transaction, with one statement; prunes what is past the
     * window if the appended changes crossed a multiple of 1,024, as {@link #append} would have.
     */
    static void appendMemories(Connection c, String origin, String namespace, List<String> memoryIds)
            throws SQLException {
        if (memoryIds.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO changes (namespace, scope, memory_id, origin) VALUES (?, ?, ?, ?)")) {
            for (String id : memoryIds) {
                ps.setString(1, namespace);
                ps.setString(2, Kind.MEMORY.name());
                ps.setString(3, id);
                ps.setString(4, origin);
                ps.addBatch();
            }
            ps.executeBatch();
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT last_insert_rowid()")) {
            long seq = rs.getLong(1);
            if (memoryIds.size() >= 1024 || seq % 1024 < memoryIds.size()) {
                s.executeUpdate("DELETE FROM changes WHERE seq <= " + (seq - KEPT));
            }
        }
    }

    /** Appends one change in the caller's write transaction; every 1,024th prunes what is past the window. */
    static void append(Connection c, String origin, String namespace, Kind kind, String memoryId)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO changes (namespace, scope, memory_id, origin) VALUES (?, ?, ?, ?)")) {
            ps.setString(1, namespace);
            ps.setString(2, kind.name());
            ps.setString(3, memoryId);
            ps.setString(4, origin);
            ps.executeUpdate();
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT last_insert_rowid()")) {
            long seq = rs.getLong(1);
            if (seq % 1024 == 0) {
                s.executeUpdate("DELETE FROM changes WHERE seq <= " + (seq - KEPT));
            }
        }
    }

    /** The number of the latest change; 0 before any. */
    @Override
    public long last(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT coalesce(max(seq), 0) FROM changes")) {
            return rs.getLong(1);
        }
    }

    /** The changes after {@code after}, reading at most {@code limit}, leaving out those {@code origin} wrote. */
    @Override
    public Changes since(Connection c, long after, int limit, String origin) throws SQLException {
        long oldest;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT min(seq) FROM changes")) {
            oldest = rs.getLong(1); // 0 when the log is empty
        }
        List<Change> changes = new ArrayList<>();
        long upTo = after;
        int read = 0;
        try (PreparedStatement ps = c.prepareStatement("SELECT seq, namespace, scope, memory_id, origin"
                + " FROM changes WHERE seq > ? ORDER BY seq LIMIT ?")) {
            ps.setLong(1, after);
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    read++;
                    upTo = rs.getLong(1);
                    if (!origin.equals(rs.getString(5))) {
                        changes.add(new Change(upTo, rs.getString(2), Kind.valueOf(rs.getString(3)),
                                rs.getString(4)));
                    }
                }
            }
        }
        // Complete unless changes after the one asked for were pruned before they could be read.
        boolean complete = oldest == 0 || oldest <= after + 1;
        return new Changes(changes, upTo, read < limit, complete);
    }
}
