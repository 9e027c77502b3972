package dev.memfas.postgres;

import dev.memfas.sql.SqlCodec;
import dev.memfas.sql.SqlTables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
