package dev.memfas.core.curator;

import dev.memfas.CuratorStats;
import dev.memfas.core.turn.SessionRegistry;
import dev.memfas.core.vector.NamespaceIndexes;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.Tokenizer;
import dev.memfas.spi.TriggerStore;
import dev.memfas.spi.VectorSpace;

/** The curator's statistics: over the whole curator, or one namespace's only. Thread-safe. */
final class CuratorCounts {
    private final MemoryStore store;
    private final TriggerStore triggerStore;
    private final NamespaceIndexes indexes;
    private final SessionRegistry sessions;
    private final TurnPublisher publisher;
    private final String model;
    private final String tokenizer;

    CuratorCounts(MemoryStore store, TriggerStore triggerStore, NamespaceIndexes indexes, SessionRegistry sessions,
            TurnPublisher publisher,
            VectorSpace space, Tokenizer tokenizer) {
        this.store = store;
        this.triggerStore = triggerStore;
        this.indexes = indexes;
        this.sessions = sessions;
        this.publisher = publisher;
        this.model = space == null ? "" : space.modelId();
        this.tokenizer = tokenizer.id();
    }

    CuratorStats all() {
        long memories = 0;
        long triggers = 0;
        for (String ns : store.namespaces()) {
            memories += store.count(ns);
            triggers += triggerStore.triggers(ns).size();
        }
        return new CuratorStats(memories, indexes.vectorCount(), triggers, sessions.size(), publisher.turns(), model,
                tokenizer);
    }

    CuratorStats of(String namespace) {
        java.util.Objects.requireNonNull(namespace, "namespace");
        return new CuratorStats(store.count(namespace), indexes.vectorCount(namespace),
                triggerStore.triggers(namespace).size(), sessions.inNamespace(namespace).size(), publisher
                        .turns(namespace),
                model, tokenizer);
    }
}
