package dev.memfas.sqlite;

import dev.memfas.State;
import dev.memfas.sql.SqlCodec;
import dev.memfas.sql.SqlTables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code state} table: text values under keys, per namespace, each with the time it was last saved. */
enum StateTable implements SqlTables.StateRows {
    INSTANCE;

    @Override
    public void save(Connection c, String namespace, String key, String value, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO state (namespace, key, value, updated_s) "
                + "VALUES (?, ?, ?, ?) ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, "
                + "updated_s = excluded.updated_s")) {
            ps.setString(1, namespace);
            ps.setString(2, key);
            ps.setBytes(3, SqlCodec.encodeText(value));
            ps.setLong(4, now.getEpochSecond());
            ps.executeUpdate();
        }
    }

    @Override
    public boolean delete(Connection c, String namespace, String key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM state WHERE namespace = ? AND key = ?")) {
            ps.setString(1, namespace);
            ps.setString(2, key);
            return ps.executeUpdate() > 0;
        }
    }

    @Override
    public String load(Connection c, String namespace, String key) throws SQLException {
        return find(c, namespace, Keys.EQUAL, key, 1).get(key);
    }

    @Override
    public Map<String, String> search(Connection c, String namespace, String glob, int limit) throws SQLException {
        return find(c, namespace, Keys.GLOB, glob, limit);
    }

    /** Which keys a {@link #find} selects. */
    enum Keys {
        /** Every key ({@code pattern} unused). */
        ALL("1 = 1"),
        /** The key equal to {@code pattern}. */
        EQUAL("key = ?"),
        /** The keys matching the glob {@code pattern}. */
        GLOB("key GLOB ?");

        private final String condition;

        Keys(String condition) {
            this.condition = condition;
        }
    }

    /** The keys and values of a namespace that {@code keys} selects, sorted by key, at most {@code limit}. */
    static Map<String, String> find(Connection c, String namespace, Keys keys, String pattern, int limit)
            throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT key, value FROM state WHERE namespace = ? AND " + keys.condition + " ORDER BY key LIMIT ?")) {
            ps.setString(1, namespace);
            int at = 2;
            if (keys != Keys.ALL) {
                ps.setString(at++, pattern);
            }
            ps.setInt(at, Math.max(0, limit));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), SqlCodec.decodeText(rs.getBytes(2)));
                }
            }
        }
        return out;
    }

    /** Every key of a namespace, sorted, with when it was saved, its size and, if asked, a preview. */
    @Override
    public List<State.Entry> entries(Connection c, String namespace, boolean withPreview) throws SQLException {
        List<State.Entry> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT key, value, updated_s FROM state WHERE namespace = ? ORDER BY key")) {
            ps.setString(1, namespace);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(State.Entry.of(rs.getString(1), Instant.ofEpochSecond(rs.getLong(3)),
                            SqlCodec.decodeText(rs.getBytes(2)), withPreview));
                }
            }
        }
        return out;
    }

    /** Deletes every key of a namespace but those beginning with {@code exceptPrefix} (null: every key). */
    @Override
    public int clear(Connection c, String namespace, String exceptPrefix) throws SQLException {
        String sql = exceptPrefix == null ? "DELETE FROM state WHERE namespace = ?"
                : "DELETE FROM state WHERE namespace = ? AND substr(key, 1, ?) <> ?";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, namespace);
            if (exceptPrefix != null) {
                ps.setInt(2, exceptPrefix.length());
                ps.setString(3, exceptPrefix);
            }
            return ps.executeUpdate();
        }
    }
}
