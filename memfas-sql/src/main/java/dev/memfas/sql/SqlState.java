package dev.memfas.sql;

import dev.memfas.State;
import dev.memfas.spi.StateStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A store's key-value state ({@link StateStore}): the arguments checked, each call one transaction of the store's
 * state table, read on the primary (never a read replica: a value saved is read back at once). The statements are
 * written here in the store's dialect, which says how a key is kept; searching by glob is the store's
 * ({@link SqlTables.StateRows}). Thread-safe.
 */
final class SqlState implements StateStore {
    private final SqlTransactions db;
    private final SqlDialect dialect;
    private final SqlTables.StateRows rows;
    private final String table;
    /** Dates a value saved without a time. */
    private final Clock clock;

    SqlState(SqlTransactions db, SqlTables tables, Clock clock) {
        this.db = db;
        this.dialect = tables.dialect();
        this.rows = tables.state();
        this.table = dialect.table("state");
        this.clock = clock;
    }

    @Override
    public void saveState(String namespace, String key, String value) {
        saveState(namespace, key, value, clock.instant());
    }

    @Override
    public void saveState(String namespace, String key, String value, Instant updatedAt) {
        Objects.requireNonNull(namespace, "namespace");
        StateStore.checkStateKey(key);
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(updatedAt, "updatedAt");
        db.write("save state", c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (namespace, key, value, "
                    + "updated_s) VALUES (?, ?, ?, ?) ON CONFLICT (namespace, key) DO UPDATE SET "
                    + "value = excluded.value, updated_s = excluded.updated_s")) {
                ps.setString(1, namespace);
                dialect.setStateKey(ps, 2, key);
                ps.setBytes(3, SqlCodec.encodeText(value));
                ps.setLong(4, updatedAt.getEpochSecond());
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public Optional<String> loadState(String namespace, String key) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(key, "key");
        return Optional.ofNullable(db.readPrimary("read state", c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT value FROM " + table + " WHERE namespace = ? AND key = ?")) {
                ps.setString(1, namespace);
                dialect.setStateKey(ps, 2, key);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? SqlCodec.decodeText(rs.getBytes(1)) : null;
                }
            }
        }));
    }

    @Override
    public boolean deleteState(String namespace, String key) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(key, "key");
        return db.write("delete state", c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "DELETE FROM " + table + " WHERE namespace = ? AND key = ?")) {
                ps.setString(1, namespace);
                dialect.setStateKey(ps, 2, key);
                return ps.executeUpdate() > 0;
            }
        });
    }

    @Override
    public List<State.Entry> listState(String namespace, boolean includePreview) {
        Objects.requireNonNull(namespace, "namespace");
        return db.readPrimary("list state", c -> entries(c, namespace, includePreview));
    }

    /** Every key of a namespace, sorted, with when it was saved, its size and, if asked, a preview. */
    private List<State.Entry> entries(Connection c, String namespace, boolean withPreview) throws SQLException {
        List<State.Entry> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT key, value, updated_s FROM " + table + " WHERE namespace = ? ORDER BY key")) {
            ps.setString(1, namespace);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(State.Entry.of(dialect.stateKey(rs, 1), Instant.ofEpochSecond(rs.getLong(3)),
                            SqlCodec.decodeText(rs.getBytes(2)), withPreview));
                }
            }
        }
        return out;
    }

    @Override
    public Map<String, String> searchState(String namespace, String glob, int limit) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(glob, "glob");
        return db.readPrimary("read state", c -> rows.search(c, namespace, glob, limit));
    }

    @Override
    public int clearState(String namespace, String exceptPrefix) {
        Objects.requireNonNull(namespace, "namespace");
        return db.write("clear state", c -> {
            // substr and length count what the key is kept as (characters of text, bytes of bytes) in both stores.
            String sql = exceptPrefix == null ? "DELETE FROM " + table + " WHERE namespace = ?"
                    : "DELETE FROM " + table + " WHERE namespace = ? AND substr(key, 1, length(?)) <> ?";
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setString(1, namespace);
                if (exceptPrefix != null) {
                    dialect.setStateKey(ps, 2, exceptPrefix);
                    dialect.setStateKey(ps, 3, exceptPrefix);
                }
                return ps.executeUpdate();
            }
        });
    }
}
