package dev.memfas.sql;

import dev.memfas.Trigger;
import dev.memfas.spi.SharedStore.Kind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A store's triggers ({@link dev.memfas.spi.TriggerStore}) in its {@code triggers} table: one row per namespace and
 * keyword (case-insensitive), in the order they were first added. Each call checks its arguments and is one
 * transaction; every change is logged for other processes. Thread-safe.
 */
final class SqlTriggers {
    private final SqlTransactions db;
    private final SqlDialect dialect;
    private final SqlTables.ChangeRows changes;
    private final String origin;
    private final String table;

    SqlTriggers(SqlTransactions db, SqlTables tables, String origin) {
        this.db = db;
        this.dialect = tables.dialect();
        this.changes = tables.changes();
        this.origin = origin;
        this.table = dialect.table("triggers");
    }

    /** Adds the trigger, or replaces the one with its keyword, keeping that one's place. */
    void put(Trigger trigger) {
        Objects.requireNonNull(trigger, "trigger");
        db.write("write trigger", c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table
                    + " (namespace, keyword_key, keyword, hint, memory_ids, seq) "
                    + "VALUES (?, ?, ?, ?, ?, " + dialect.nextSequence(table) + ") "
                    + "ON CONFLICT (namespace, keyword_key) DO UPDATE SET keyword = excluded.keyword, "
                    + "hint = excluded.hint, memory_ids = excluded.memory_ids")) {
                ps.setString(1, trigger.namespace());
                ps.setString(2, trigger.keyword().toLowerCase(Locale.ROOT));
                ps.setString(3, trigger.keyword());
                ps.setBytes(4, SqlCodec.encodeText(trigger.hint()));
                dialect.setIdList(c, ps, 5, trigger.memoryIds());
                ps.executeUpdate();
            }
            changes.logWhole(c, origin, trigger.namespace(), Kind.TRIGGERS);
            return null;
        });
    }

    /** Removes the trigger with this keyword; whether there was one. */
    boolean remove(String namespace, String keyword) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(keyword, "keyword");
        return db.write("remove trigger", c -> {
            boolean removed;
            try (PreparedStatement ps = c.prepareStatement(
                    "DELETE FROM " + table + " WHERE namespace = ? AND keyword_key = ?")) {
                ps.setString(1, namespace);
                ps.setString(2, keyword.strip().toLowerCase(Locale.ROOT));
                removed = ps.executeUpdate() > 0;
            }
            if (removed) {
                changes.logWhole(c, origin, namespace, Kind.TRIGGERS);
            }
            return removed;
        });
    }

    /** The namespace's triggers, in the order they were first added. */
    List<Trigger> all(String namespace) {
        Objects.requireNonNull(namespace, "namespace");
        return db.read("read triggers", c -> all(c, namespace));
    }

    private List<Trigger> all(Connection c, String namespace) throws SQLException {
        List<Trigger> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT keyword, hint, memory_ids FROM " + table + " WHERE namespace = ? ORDER BY seq")) {
            ps.setString(1, namespace);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Trigger(rs.getString(1), SqlCodec.decodeText(rs.getBytes(2)),
                            dialect.idList(rs, 3), namespace));
                }
            }
        }
        return List.copyOf(out);
    }
}
