package dev.memfas.core.turn;

import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.spi.MemoryStore;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ids of each namespace's pinned memories, which join every turn's candidates: a pinned memory is in the context
 * whenever the budget has room for it, whatever it scores. Read from the store once per namespace (one filtered pass),
 * then kept in step with the curator's writes.
 *
 * <p>Thread-safe. Writers call {@link #written} and {@link #removed} under the curator's write lock, after the store
 * changed.
 */
public final class PinnedMemories {
    private final MemoryStore store;
    private final ConcurrentHashMap<String, Set<String>> byNamespace = new ConcurrentHashMap<>();

    public PinnedMemories(MemoryStore store) {
        this.store = store;
    }

    /** The namespace's pinned ids; a live view, possibly empty. */
    public Set<String> ids(String namespace) {
        return byNamespace.computeIfAbsent(namespace, ns -> {
            Set<String> ids = ConcurrentHashMap.newKeySet();
            store.forEach(ns, MemoryFilter.all().pinned(), m -> ids.add(m.id()));
            return ids;
        });
    }

    /** Memories were stored: pinned ones are added, others (an unpinned replacement too) removed. */
    public void written(List<Memory> memories) {
        for (Memory m : memories) {
            Set<String> ids = byNamespace.get(m.namespace());
            if (ids == null) {
                continue; // not loaded yet: the first read will see the store as it is
            }
            if (m.pinned()) {
                ids.add(m.id());
            } else {
                ids.remove(m.id());
            }
        }
    }

    /** Forgets what it knows of a namespace: the next read loads it from the store again. */
    public void reload(String namespace) {
        byNamespace.remove(namespace);
    }

    /** Forgets every namespace. */
    public void reloadAll() {
        byNamespace.clear();
    }

    /** Memories were deleted. */
    public void removed(String namespace, Collection<String> ids) {
        Set<String> pinned = byNamespace.get(namespace);
        if (pinned != null) {
            pinned.removeAll(ids);
        }
    }
}
