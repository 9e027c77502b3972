package dev.memfas.sql;

import dev.memfas.State;
import dev.memfas.Trigger;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.SharedStore;
import dev.memfas.spi.StateStore;
import dev.memfas.spi.TokenCountStore;
import dev.memfas.spi.TriggerStore;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the SQLite and PostgreSQL stores share: a durable store of memories that other processes may share, with its
 * triggers, token counts and key-value state, each call handed to the store's {@link SqlFacets}. Internal: a store of
 * one's own implements the {@code dev.memfas.spi} interfaces instead.
 */
public abstract class AbstractSqlStore implements MemoryStore, StateStore, TriggerStore, TokenCountStore,
        SharedStore {
    /** For the two stores of memfas. */
    protected AbstractSqlStore() {}

    /** The store's triggers, token counts and state; the same object on every call. */
    protected abstract SqlFacets facets();

    @Override
    public final void putTrigger(Trigger trigger) {
        facets().triggers.put(trigger);
    }

    @Override
    public final boolean removeTrigger(String namespace, String keyword) {
        return facets().triggers.remove(namespace, keyword);
    }

    @Override
    public final List<Trigger> triggers(String namespace) {
        return facets().triggers.all(namespace);
    }

    @Override
    public final void putTokenCounts(String tokenizerKey, Collection<TokenCount> counts) {
        facets().tokenCounts.put(tokenizerKey, counts);
    }

    @Override
    public final Map<String, Integer> tokenCounts(String namespace, String tokenizerKey, Collection<String> ids) {
        return facets().tokenCounts.byIds(namespace, tokenizerKey, ids);
    }

    @Override
    public final void saveState(String namespace, String key, String value) {
        facets().state.saveState(namespace, key, value);
    }

    @Override
    public final void saveState(String namespace, String key, String value, Instant updatedAt) {
        facets().state.saveState(namespace, key, value, updatedAt);
    }

    @Override
    public final Optional<String> loadState(String namespace, String key) {
        return facets().state.loadState(namespace, key);
    }

    @Override
    public final boolean deleteState(String namespace, String key) {
        return facets().state.deleteState(namespace, key);
    }

    @Override
    public final List<State.Entry> listState(String namespace, boolean includePreview) {
        return facets().state.listState(namespace, includePreview);
    }

    @Override
    public final Map<String, String> searchState(String namespace, String glob, int limit) {
        return facets().state.searchState(namespace, glob, limit);
    }

    @Override
    public final int clearState(String namespace, String exceptPrefix) {
        return facets().state.clearState(namespace, exceptPrefix);
    }
}
