package dev.memfas.sql;

import dev.memfas.State;
import dev.memfas.spi.StateStore;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A store's key-value state ({@link StateStore}): the arguments checked, each call one transaction of the store's
 * state table, read on the primary (never a read replica: a value saved is read back at once). Thread-safe.
 */
final class SqlState implements StateStore {
    private final SqlTransactions db;
    private final SqlTables.StateRows rows;
    /** Dates a value saved without a time. */
    private final Clock clock;

    SqlState(SqlTransactions db, SqlTables.StateRows rows, Clock clock) {
        this.db = db;
        this.rows = rows;
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
            rows.save(c, namespace, key, value, updatedAt);
            return null;
        });
    }

    @Override
    public Optional<String> loadState(String namespace, String key) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(key, "key");
        return Optional.ofNullable(db.readPrimary("read state", c -> rows.load(c, namespace, key)));
    }

    @Override
    public boolean deleteState(String namespace, String key) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(key, "key");
        return db.write("delete state", c -> rows.delete(c, namespace, key));
    }

    @Override
    public List<State.Entry> listState(String namespace, boolean includePreview) {
        Objects.requireNonNull(namespace, "namespace");
        return db.readPrimary("list state", c -> rows.entries(c, namespace, includePreview));
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
        return db.write("clear state", c -> rows.clear(c, namespace, exceptPrefix));
    }
}
