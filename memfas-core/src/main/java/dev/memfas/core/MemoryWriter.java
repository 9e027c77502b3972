package dev.memfas.core;

import dev.memfas.Embedder;
import dev.memfas.Embeddings;
import dev.memfas.Memory;
import dev.memfas.MemoryStore;
import dev.memfas.Trigger;
import dev.memfas.VectorSpace;
import dev.memfas.core.vector.VectorIndex;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The write path: remembers (ids and times filled in, embedded in batches outside the lock), forgets, and changes
 * triggers, keeping the vector indexes, the pinned memories and the compiled triggers in step with the store. Writes
 * are serialized by one lock, so the store and the indexes change in the same order; turns do not take it.
 * Thread-safe.
 */
final class MemoryWriter {
    private final MemoryStore store;
    /** The curator's embedder, or null. */
    private final Embedder embedder;
    private final VectorSpace space;
    private final int embedBatchSize;
    private final NamespaceIndexes indexes;
    private final NamespaceTriggers triggers;
    private final PinnedMemories pinned;
    /** Checks the curator is open; run under the lock, so no write reaches a closed store. */
    private final Runnable ensureOpen;
    /** Counts what is written, so turns find the counts. */
    private final TokenCounter tokenCounter;
    private final ReentrantLock lock = new ReentrantLock();

    MemoryWriter(MemoryStore store, Embedder embedder, int embedBatchSize, NamespaceIndexes indexes,
            NamespaceTriggers triggers, PinnedMemories pinned, TokenCounter tokenCounter, Runnable ensureOpen) {
        this.ensureOpen = ensureOpen;
        this.tokenCounter = tokenCounter;
        this.store = store;
        this.embedder = embedder;
        this.space = embedder == null ? null : new VectorSpace(embedder.modelId(), embedder.dimension());
        this.embedBatchSize = embedBatchSize;
        this.indexes = indexes;
        this.triggers = triggers;
        this.pinned = pinned;
    }

    /** Runs {@code action} with writes held off: for applying other processes' changes, and for closing. */
    void exclusively(Runnable action) {
        lock.lock();
        try {
            action.run();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stores the memories, giving those without an id a random one and those without a creation time {@code now},
     * and purges the expired memories of the namespaces written.
     *
     * @return the memories as stored
     */
    List<Memory> rememberAll(Collection<Memory> memories, Instant now) {
        List<Memory> prepared = new ArrayList<>(memories.size());
        int i = 0;
        for (Memory m : memories) {
            Objects.requireNonNull(m, "memory " + i);
            Memory.Builder b = m.toBuilder();
            if (m.id() == null) {
                b.id(UUID.randomUUID().toString());
            }
            if (m.createdAt() == null) {
                b.createdAt(now).updatedAt(now);
            }
            prepared.add(b.build());
            i++;
        }
        MemoryStore.checkUpsert(prepared, Embeddings.none(), null);
        Embeddings embeddings = embed(prepared);
        lock.lock();
        try {
            ensureOpen.run();
            Map<String, List<Integer>> byNamespace = new LinkedHashMap<>();
            for (int j = 0; j < prepared.size(); j++) {
                byNamespace.computeIfAbsent(prepared.get(j).namespace(), k -> new ArrayList<>()).add(j);
            }
            // Loaded before the write, so that a namespace's index never holds a vector twice.
            byNamespace.keySet().forEach(indexes::indexFor);
            store.upsertAll(prepared, embeddings);
            pinned.written(prepared);
            for (Map.Entry<String, List<Integer>> e : byNamespace.entrySet()) {
                // Writes are when expired memories are purged: rare enough to cost nothing, often enough to keep
                // the store from filling with them.
                List<String> expired = store.deleteExpired(e.getKey(), now);
                pinned.removed(e.getKey(), expired);
                VectorIndex index = indexes.loaded(e.getKey());
                if (index == null) {
                    continue;
                }
                index.removeAll(expired);
                List<String> ids = new ArrayList<>();
                List<float[]> vectors = new ArrayList<>();
                for (int j : e.getValue()) {
                    ids.add(prepared.get(j).id());
                    if (!embeddings.isEmpty()) {
                        vectors.add(embeddings.vector(j));
                    }
                }
                if (embeddings.isEmpty()) {
                    index.removeAll(ids);
                } else {
                    index.putAll(ids, vectors);
                }
            }
        } finally {
            lock.unlock();
        }
        tokenCounter.countWritten(prepared);
        return List.copyOf(prepared);
    }

    /** The memories' vectors, embedded in batches; none without an embedder. */
    private Embeddings embed(List<Memory> prepared) {
        if (embedder == null || prepared.isEmpty()) {
            return Embeddings.none();
        }
        List<float[]> vectors = new ArrayList<>(prepared.size());
        for (int from = 0; from < prepared.size(); from += embedBatchSize) {
            List<Memory> batch = prepared.subList(from, Math.min(prepared.size(), from + embedBatchSize));
            vectors.addAll(Embeddings.embed(embedder, batch.stream().map(Memory::text).toList(),
                    "memory '" + batch.get(0).id() + "'"));
        }
        return Embeddings.of(space, vectors);
    }

    boolean forget(String namespace, String memoryId) {
        lock.lock();
        try {
            VectorIndex index = indexes.indexFor(namespace);
            boolean deleted = store.delete(namespace, memoryId);
            pinned.removed(namespace, List.of(memoryId));
            if (index != null) {
                index.removeAll(List.of(memoryId));
            }
            return deleted;
        } finally {
            lock.unlock();
        }
    }

    void addTrigger(Trigger trigger) {
        store.putTrigger(trigger);
        triggers.changed(trigger.namespace());
    }

    boolean removeTrigger(String namespace, String keyword) {
        boolean removed = store.removeTrigger(namespace, keyword);
        triggers.changed(namespace);
        return removed;
    }
}
