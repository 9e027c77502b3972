package dev.memfas.postgres;

import dev.memfas.Trigger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The {@code memfas_triggers} table: one row per namespace and keyword (case-insensitive), in the order they were
 * first added.
 */
final class TriggersTable {
    private TriggersTable() {}

    /** Adds the trigger, or replaces the one with its keyword, keeping that one's place. */
    static void put(Connection c, Trigger trigger) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO memfas_triggers (namespace, keyword_key, keyword, "
                + "hint, memory_ids) VALUES (?, ?, ?, ?, ?) ON CONFLICT (namespace, keyword_key) DO UPDATE SET "
                + "keyword = excluded.keyword, hint = excluded.hint, memory_ids = excluded.memory_ids")) {
            ps.setString(1, trigger.namespace());
            ps.setString(2, trigger.keyword().toLowerCase(Locale.ROOT));
            ps.setString(3, trigger.keyword());
            ps.setBytes(4, Codec.encodeText(trigger.hint()));
            ps.setArray(5, MemoriesTable.textArray(c, trigger.memoryIds()));
            ps.executeUpdate();
        }
    }

    /** Removes the trigger with this keyword; whether there was one. */
    static boolean remove(Connection c, String namespace, String keyword) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "DELETE FROM memfas_triggers WHERE namespace = ? AND keyword_key = ?")) {
            ps.setString(1, namespace);
            ps.setString(2, keyword.strip().toLowerCase(Locale.ROOT));
            return ps.executeUpdate() > 0;
        }
    }

    static List<Trigger> all(Connection c, String namespace) throws SQLException {
        List<Trigger> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT keyword, hint, memory_ids FROM memfas_triggers WHERE namespace = ? ORDER BY seq")) {
            ps.setString(1, namespace);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Trigger(rs.getString(1), Codec.decodeText(rs.getBytes(2)),
                            Arrays.asList((String[]) rs.getArray(3).getArray()), namespace));
                }
            }
        }
        return List.copyOf(out);
    }
}
