package dev.memfas.postgres;

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
 * The change log other processes catch up from ({@link dev.memfas.spi.SharedStore}): {@code memfas_changes}, one row
 * per memory written or deleted, per namespace whose triggers changed, per namespace re-embedded, each with the store
 * object that wrote it; and {@code memfas_change_counter}, the last number given.
 *
 * <p>Numbers follow commit order, without gaps: a transaction takes its numbers by updating the counter's one row as
 * its last statement and holds that row's lock until it commits, so the next writer's numbers come after, and a
 * reader that sees the counter at {@code n} sees every change up to {@code n}. The commit also notifies
 * {@value #CHANNEL}, which wakes idle readers.
 */
enum ChangeLog implements SqlTables.ChangeRows {
    INSTANCE;

    /** The channel every commit with changes notifies, with its last change number. */
    static final String CHANNEL = "memfas_changes";
    /**
     * How many changes the log keeps: a process that falls further behind rebuilds its indexes from the store. A
     * hundred thousand rows are a few megabytes; a reader checks before each turn, so it is never that far behind.
     */
    static final long KEPT = 100_000;

    /** Appends changes in the caller's transaction, as its last statements; returns the last number given. */
    static long append(Connection c, String origin, List<String> namespaces, List<String> kinds, List<String> ids)
            throws SQLException {
        int n = namespaces.size();
        long last;
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE memfas_change_counter SET last = last + ? RETURNING last")) {
            ps.setInt(1, n);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                last = rs.getLong(1);
            }
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO memfas_changes (seq, namespace, kind, memory_id, "
                + "origin) SELECT ? + ordinality, namespace, kind, memory_id, ? FROM unnest(?::text[], ?::text[], "
                + "?::text[]) WITH ORDINALITY AS u (namespace, kind, memory_id, ordinality)")) {
            ps.setLong(1, last - n);
            ps.setString(2, origin);
            ps.setArray(3, c.createArrayOf("text", namespaces.toArray()));
            ps.setArray(4, c.createArrayOf("text", kinds.toArray()));
            ps.setArray(5, c.createArrayOf("text", ids.toArray()));
            ps.executeUpdate();
        }
        try (Statement s = c.createStatement()) {
            if (n >= 1024 || last % 1024 < n) {
                s.executeUpdate("DELETE FROM memfas_changes WHERE seq <= " + (last - KEPT));
            }
            s.execute("NOTIFY " + CHANNEL + ", '" + last + "'");
        }
        return last;
    }

    /** The number of the latest change; 0 before any. */
    @Override
    public void logWhole(Connection c, String origin, String namespace, Kind kind) throws SQLException {
        WriteLog log = new WriteLog();
        log.whole(namespace, kind);
        log.finish(c, origin);
    }

    @Override
    public void logMemories(Connection c, String origin, String namespace, List<String> ids) throws SQLException {
        WriteLog log = new WriteLog();
        log.memories(namespace, ids);
        log.finish(c, origin);
    }

    @Override
    public long last(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT last FROM memfas_change_counter")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The changes after {@code after}, reading at most {@code limit}, leaving out those {@code origin} wrote. */
    @Override
    public Changes since(Connection c, long after, int limit, String origin) throws SQLException {
        List<Change> changes = new ArrayList<>();
        long upTo = after;
        int read = 0;
        long oldest;
        // One statement, one snapshot: the oldest change kept and the run after the one asked for.
        try (PreparedStatement ps = c.prepareStatement("SELECT (SELECT coalesce(min(seq), 0) FROM memfas_changes), "
                + "seq, namespace, kind, memory_id, origin FROM (SELECT 1) AS one LEFT JOIN LATERAL ("
                + "SELECT * FROM memfas_changes WHERE seq > ? ORDER BY seq LIMIT ?) AS c ON true")) {
            ps.setLong(1, after);
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
                oldest = 0;
                while (rs.next()) {
                    oldest = rs.getLong(1);
                    long seq = rs.getLong(2);
                    if (rs.wasNull()) {
                        break;
                    }
                    read++;
                    upTo = seq;
                    if (!origin.equals(rs.getString(6))) {
                        changes.add(new Change(seq, rs.getString(3), Kind.valueOf(rs.getString(4)), rs.getString(5)));
                    }
                }
            }
        }
        // Complete unless changes after the one asked for were pruned before they could be read.
        boolean complete = oldest == 0 || oldest <= after + 1;
        return new Changes(changes, upTo, read < limit, complete);
    }
}
