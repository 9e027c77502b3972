package dev.memfas.core.lifecycle;

import dev.memfas.Memory;
import dev.memfas.core.turn.AuthorNames;
import dev.memfas.core.turn.NamespaceTriggers;
import dev.memfas.core.turn.PinnedMemories;
import dev.memfas.core.vector.NamespaceIndexes;
import dev.memfas.core.vector.VectorIndex;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.SharedStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Follows a {@link SharedStore}'s change log, so that a curator sees what other processes commit: before a turn,
 * {@link #behind()} asks the store for its last change number (one cheap read); when it moved, {@link #drain()} reads
 * the changes since the last one applied and groups them by namespace for the curator to apply to its indexes.
 *
 * <p>Not thread-safe: the curator calls {@link #catchUp} under its write lock, so changes are applied in order with its
 * own writes.
 */
public final class ChangeFollower {
    /** Changes read per call: a few thousand rows of a namespace, an id and a kind each. */
    private static final int BATCH = 4_096;

    private final SharedStore feed;
    private volatile long applied;

    /** Starts at the store's last change: what came before is read with the store itself. */
    ChangeFollower(SharedStore feed) {
        this.feed = feed;
        this.applied = feed.lastChange();
    }

    /** What changed, by namespace. */
    private static final class Pending {
        /** Namespaces to rebuild from the store: re-embedded, or changes were missed. */
        final Set<String> rebuild = new HashSet<>();
        /** Whether every namespace must be rebuilt (changes were pruned before they could be read). */
        boolean rebuildAll;
        /** Memories written or deleted, by namespace. */
        final Map<String, Set<String>> memories = new HashMap<>();
        /** Namespaces whose triggers changed. */
        final Set<String> triggers = new HashSet<>();
        /** The number of the last change read. */
        long upTo;
    }

    /**
     * Whether the store has changes this curator has not applied, or went back before the last one applied (a
     * database restored from a backup, or a failover to a replica that lacked the last commits): then everything is
     * read again.
     */
    boolean behind() {
        return feed.lastChange() != applied;
    }

    /**
     * Applies the changes other processes made since the last call: the vectors of memories written or deleted there
     * (read by id, put in or taken out of the index), their pinning and authors, triggers, and whole namespaces
     * re-embedded (dropped, to be loaded again on first use). Everything is dropped when changes were missed.
     */
    void catchUp(MemoryStore store, NamespaceIndexes indexes, NamespaceTriggers triggers, PinnedMemories pinned,
            AuthorNames authors) {
        long last = feed.lastChange();
        Pending p;
        if (last < applied) {
            p = new Pending();
            p.rebuildAll = true;
            p.upTo = last;
        } else {
            p = drain();
        }
        if (p.rebuildAll) {
            indexes.dropAll();
            triggers.changedAll();
            pinned.reloadAll();
            authors.reloadAll();
            applied = p.upTo;
            return;
        }
        for (String ns : p.rebuild) {
            indexes.drop(ns);
            pinned.reload(ns);
            authors.reload(ns);
        }
        p.triggers.forEach(triggers::changed);
        p.memories.forEach((ns, ids) -> {
            if (p.rebuild.contains(ns)) {
                return;
            }
            VectorIndex index = indexes.loaded(ns);
            if (index != null) {
                Map<String, float[]> vectors = feed.vectors(ns, ids);
                List<String> gone = new ArrayList<>();
                List<String> present = new ArrayList<>(vectors.size());
                List<float[]> rows = new ArrayList<>(vectors.size());
                for (String id : ids) {
                    float[] v = vectors.get(id);
                    if (v == null) {
                        gone.add(id);
                    } else {
                        present.add(id);
                        rows.add(v);
                    }
                }
                index.removeAll(gone);
                index.putAll(present, rows);
                indexes.resized(ns);
            }
            pinned.removed(ns, ids);
            List<Memory> now = new ArrayList<>();
            store.getAll(ns, ids).forEach(s -> now.add(s.memory()));
            pinned.written(now);
            if (now.size() < ids.size()) {
                authors.removed(ns); // some were deleted
            }
            authors.written(now);
        });
        // Only now: a turn that finds nothing behind (on another thread, without the lock) must find it all applied.
        applied = p.upTo;
    }

    /** The changes since the last one applied, grouped, and the number of the last one read. */
    private Pending drain() {
        Pending p = new Pending();
        p.upTo = applied;
        while (true) {
            SharedStore.Changes run = feed.changesSince(p.upTo, BATCH);
            if (!run.complete()) {
                p.rebuildAll = true;
            }
            for (SharedStore.Change c : run.changes()) {
                switch (c.kind()) {
                    case MEMORY -> p.memories.computeIfAbsent(c.namespace(), k -> new LinkedHashSet<>())
                            .add(c.memoryId());
                    case TRIGGERS -> p.triggers.add(c.namespace());
                    case NAMESPACE -> p.rebuild.add(c.namespace());
                }
            }
            p.upTo = Math.max(p.upTo, run.upTo());
            if (run.exhausted()) {
                return p;
            }
        }
    }
}
