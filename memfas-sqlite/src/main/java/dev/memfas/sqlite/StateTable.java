package dev.memfas.sqlite;

import dev.memfas.sql.SqlCodec;
import dev.memfas.sql.SqlTables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code state} table: text values under text keys, per namespace, each with the time it was last saved; searched
 * by SQLite's own {@code GLOB}.
 */
enum StateTable implements SqlTables.StateRows {
    INSTANCE;

    /** The keys and values of a namespace whose key matches the glob, sorted by key, at most {@code limit}. */
    @Override
    public Map<String, String> search(Connection c, String namespace, String glob, int limit) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT key, value FROM state WHERE namespace = ? AND key GLOB ? ORDER BY key LIMIT ?")) {
            ps.setString(1, namespace);
            ps.setString(2, glob);
            ps.setInt(3, Math.max(0, limit));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), SqlCodec.decodeText(rs.getBytes(2)));
                }
            }
        }
        return out;
    }

}
