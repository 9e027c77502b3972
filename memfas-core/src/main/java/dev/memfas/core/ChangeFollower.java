package dev.memfas.core;

import dev.memfas.SharedStore;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Follows a {@link SharedStore}'s change log, so that a curator sees what other processes commit: before a turn,
 * {@link #behind()} asks the store for its last change number (one cheap read); when it moved, {@link #drain()} reads
 * the changes since the last one applied and groups them by namespace for the curator to apply to its indexes.
 *
 * <p>Not thread-safe: the curator drains under its write lock, so changes are applied in order with its own writes.
 */
final class ChangeFollower {
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
    static final class Pending {
        /** Namespaces to rebuild from the store: re-embedded, or changes were missed. */
        final Set<String> rebuild = new HashSet<>();
        /** Whether every namespace must be rebuilt (changes were pruned before they could be read). */
        boolean rebuildAll;
        /** Memories written or deleted, by namespace. */
        final Map<String, Set<String>> memories = new HashMap<>();
        /** Namespaces whose triggers changed. */
        final Set<String> triggers = new HashSet<>();
    }

    /** Whether the store has changes this curator has not applied. */
    boolean behind() {
        return feed.lastChange() > applied;
    }

    /** The changes since the last drain, grouped; marks them applied. Call under the curator's write lock. */
    Pending drain() {
        Pending p = new Pending();
        while (true) {
            SharedStore.Changes run = feed.changesSince(applied, BATCH);
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
            applied = Math.max(applied, run.upTo());
            if (run.exhausted()) {
                return p;
            }
        }
    }
}
