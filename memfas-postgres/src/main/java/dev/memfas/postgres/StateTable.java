package dev.memfas.postgres;

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
import java.util.regex.Pattern;

/**
 * The {@code memfas_state} table: text values under keys, per namespace, each with the time it was last saved. Keys
 * are any text (NUL included), so they are {@code bytea} too, sorted by their bytes; a glob is matched here, on the
 * keys read back.
 */
enum StateTable implements SqlTables.StateRows {
    INSTANCE;

    @Override
    public void save(Connection c, String namespace, String key, String value, Instant at) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO memfas_state (namespace, key, value, updated_s) "
                + "VALUES (?, ?, ?, ?) ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, "
                + "updated_s = excluded.updated_s")) {
            ps.setString(1, namespace);
            ps.setBytes(2, SqlCodec.encodeText(key));
            ps.setBytes(3, SqlCodec.encodeText(value));
            ps.setLong(4, at.getEpochSecond());
            ps.executeUpdate();
        }
    }

    @Override
    public boolean delete(Connection c, String namespace, String key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM memfas_state WHERE namespace = ? AND key = ?")) {
            ps.setString(1, namespace);
            ps.setBytes(2, SqlCodec.encodeText(key));
            return ps.executeUpdate() > 0;
        }
    }

    @Override
    public String load(Connection c, String namespace, String key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT value FROM memfas_state WHERE namespace = ? AND key = ?")) {
            ps.setString(1, namespace);
            ps.setBytes(2, SqlCodec.encodeText(key));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? SqlCodec.decodeText(rs.getBytes(1)) : null;
            }
        }
    }

    /** The keys and values of a namespace whose key matches the glob, sorted by key, at most {@code limit}. */
    @Override
    public Map<String, String> search(Connection c, String namespace, String glob, int limit) throws SQLException {
        Pattern pattern = toRegex(glob);
        Map<String, String> out = new LinkedHashMap<>();
        if (limit <= 0) {
            return out;
        }
        try (PreparedStatement keys = c.prepareStatement(
                "SELECT key FROM memfas_state WHERE namespace = ? ORDER BY key")) {
            keys.setString(1, namespace);
            List<byte[]> matching = new ArrayList<>();
            try (ResultSet rs = keys.executeQuery()) {
                while (rs.next() && matching.size() < limit) {
                    byte[] key = rs.getBytes(1);
                    if (pattern.matcher(SqlCodec.decodeText(key)).matches()) {
                        matching.add(key);
                    }
                }
            }
            if (matching.isEmpty()) {
                return out;
            }
            try (PreparedStatement values = c.prepareStatement("SELECT key, value FROM memfas_state "
                    + "WHERE namespace = ? AND key = ANY (?) ORDER BY key")) {
                values.setString(1, namespace);
                values.setArray(2, c.createArrayOf("bytea", matching.toArray(new byte[0][])));
                try (ResultSet rs = values.executeQuery()) {
                    while (rs.next()) {
                        out.put(SqlCodec.decodeText(rs.getBytes(1)), SqlCodec.decodeText(rs.getBytes(2)));
                    }
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
                "SELECT key, value, updated_s FROM memfas_state WHERE namespace = ? ORDER BY key")) {
            ps.setString(1, namespace);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(State.Entry.of(SqlCodec.decodeText(rs.getBytes(1)), Instant.ofEpochSecond(rs.getLong(3)),
                            SqlCodec.decodeText(rs.getBytes(2)), withPreview));
                }
            }
        }
        return out;
    }

    /** Deletes every key of a namespace but those beginning with {@code exceptPrefix} (null: every key). */
    @Override
    public int clear(Connection c, String namespace, String exceptPrefix) throws SQLException {
        String sql = exceptPrefix == null ? "DELETE FROM memfas_state WHERE namespace = ?"
                : "DELETE FROM memfas_state WHERE namespace = ? AND substring(key FROM 1 FOR ?) <> ?";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, namespace);
            if (exceptPrefix != null) {
                byte[] prefix = SqlCodec.encodeText(exceptPrefix);
                ps.setInt(2, prefix.length);
                ps.setBytes(3, prefix);
            }
            return ps.executeUpdate();
        }
    }

    /**
     * A state key glob as a regular expression, read as SQLite's {@code GLOB} reads it (the other stores' meaning):
     * {@code *} any run of characters, {@code ?} one character, {@code [abc]} and {@code [a-z]} one of a class,
     * {@code [^abc]} one not in it; everything else itself, case-sensitively.
     */
    static Pattern toRegex(String glob) {
        StringBuilder re = new StringBuilder(glob.length() + 8);
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            int classEnd = c == '[' ? glob.indexOf(']', i + 2) : -1;
            if (c == '*') {
                re.append(".*");
            } else if (c == '?') {
                re.append('.');
            } else if (classEnd > 0) {
                boolean negated = glob.charAt(i + 1) == '^';
                re.append(negated ? "[^" : "[");
                for (int k = negated ? i + 2 : i + 1; k < classEnd; k++) {
                    char member = glob.charAt(k);
                    if ("\\[]^&".indexOf(member) >= 0) {
                        re.append('\\');
                    }
                    re.append(member);
                }
                re.append(']');
                i = classEnd;
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL);
    }
}
