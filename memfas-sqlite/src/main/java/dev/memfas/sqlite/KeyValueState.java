package dev.memfas.sqlite;

import dev.memfas.State;
import dev.memfas.spi.StateStore;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The store's key-value state ({@link StateStore#saveState} and the rest): the arguments checked, each
 * call one transaction of {@link StateTable}. Thread-safe.
 */
final class KeyValueState implements StateStore {
    private final SqliteDatabase db;
    /** Dates a value saved without a time. */
    private final Clock clock;

    KeyValueState(SqliteDatabase db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    @Override
    public void saveState(String namespace, String key, String value) {
        saveState(namespace, key, value, clock.instant());
    }

    @Override
    public void saveState(String namespace, String key, String value, Instant updatedAt) {
        Objects.requireNonNull(namespace, "namespace");
        StateTable.checkKey(key);
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(updatedAt, "updatedAt");
        db.write("save state", c -> {
            StateTable.save(c, namespace, key, value, updatedAt);
            return null;
        }, null);
    }

    @Override
    public Optional<String> loadState(String namespace, String key) {
        Objects.requireNonNull(key, "key");
        return Optional.ofNullable(find(namespace, StateTable.Keys.EQUAL, key, 1).get(key));
    }

    @Override
    public boolean deleteState(String namespace, String key) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(key, "key");
        return db.write("delete state", c -> StateTable.delete(c, namespace, key), null);
    }

    @Override
    public List<State.Entry> listState(String namespace, boolean includePreview) {
        Objects.requireNonNull(namespace, "namespace");
        return db.read("list state", c -> StateTable.entries(c, namespace, includePreview));
    }

    @Override
    public Map<String, String> searchState(String namespace, String glob, int limit) {
        Objects.requireNonNull(glob, "glob");
        return find(namespace, StateTable.Keys.GLOB, glob, limit);
    }

    @Override
    public int clearState(String namespace, String exceptPrefix) {
        Objects.requireNonNull(namespace, "namespace");
        return db.write("clear state", c -> StateTable.clear(c, namespace, exceptPrefix), null);
    }

    private Map<String, String> find(String namespace, StateTable.Keys keys, String pattern, int limit) {
        Objects.requireNonNull(namespace, "namespace");
        return db.read("read state", c -> StateTable.find(c, namespace, keys, pattern, limit));
    }
}
