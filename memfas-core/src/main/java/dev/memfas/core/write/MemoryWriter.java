package dev.memfas.core.write;

import dev.memfas.Memory;
import dev.memfas.Trigger;
import dev.memfas.core.envelope.TokenCounter;
import dev.memfas.core.turn.AuthorNames;
import dev.memfas.core.turn.NamespaceTriggers;
import dev.memfas.core.turn.PinnedMemories;
import dev.memfas.core.vector.NamespaceIndexes;
import dev.memfas.core.vector.VectorIndex;
import dev.memfas.policy.DuplicatePolicy;
import dev.memfas.policy.SupersessionPolicy;
import dev.memfas.spi.Embedder;
import dev.memfas.spi.Embeddings;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.TriggerStore;
import dev.memfas.spi.VectorSpace;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The write path: remembers (ids and times filled in, embedded in batches outside the lock), forgets, and changes
 * triggers, keeping the vector indexes, the pinned memories, the author names and the compiled triggers in step
 * with the store. Writes are serialized by one lock, so the store and the indexes change in the same order; turns do
 * not take it. Thread-safe.
 */
public final class MemoryWriter {
    private final MemoryStore store;
    private final TriggerStore triggerStore;
    /** The curator's embedder, or null. */
    private final Embedder embedder;
    private final VectorSpace space;
    private final int embedBatchSize;
    private final NamespaceIndexes indexes;
    private final NamespaceTriggers triggers;
    private final PinnedMemories pinned;
    private final AuthorNames authors;
    /** Checks the curator is open; run under the lock, so no write reaches a closed store. */
    private final Runnable ensureOpen;
    /** Counts what is written, so turns find the counts. */
    private final TokenCounter tokenCounter;
    /** Decides what becomes of a memory, given without an id, that a stored one already says. */
    private final DuplicateFinder duplicates;
    /** Decides whether a new memory updates a stored one. */
    private final SupersessionFinder supersessions;
    private final ReentrantLock lock = new ReentrantLock();

    public MemoryWriter(MemoryStore store, TriggerStore triggerStore, Embedder embedder, int embedBatchSize,
            NamespaceIndexes indexes, NamespaceTriggers triggers, PinnedMemories pinned, AuthorNames authors,
            TokenCounter tokenCounter, DuplicatePolicy duplicates, SupersessionPolicy supersession,
            Runnable ensureOpen) {
        this.duplicates = new DuplicateFinder(store, indexes, duplicates);
        this.supersessions = new SupersessionFinder(store, indexes, supersession);
        this.ensureOpen = ensureOpen;
        this.tokenCounter = tokenCounter;
        this.store = store;
        this.triggerStore = triggerStore;
        this.embedder = embedder;
        this.space = embedder == null ? null : new VectorSpace(embedder.modelId(), embedder.dimension());
        this.embedBatchSize = embedBatchSize;
        this.indexes = indexes;
        this.triggers = triggers;
        this.pinned = pinned;
        this.authors = authors;
    }

    /** Runs {@code action} with writes held off: for applying other processes' changes, and for closing. */
    public void exclusively(Runnable action) {
        lock.lock();
        try {
            action.run();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs {@code action} on an open curator with other writes held off, and returns its result: for a read and the
     * write that depends on it ({@link Revisions}). The lock is reentrant, so the action may call {@link #rememberAll}.
     */
    public <T> T exclusively(Supplier<T> action) {
        lock.lock();
        try {
            ensureOpen.run();
            return action.get();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stores the memories, giving those without an id a random one and those without a creation time the stored
     * one's (when they replace one) or {@code now}, and purges the expired memories of the namespaces written. A
     * memory equal to the stored one but for {@code updatedAt} is not written; one given without an id that
     * duplicates a stored one is handled by the {@link DuplicatePolicy}.
     *
     * @return the memories as stored
     */
    public List<Memory> rememberAll(Collection<Memory> memories, Instant now) {
        List<Prepared> batch = prepare(memories, now);
        MemoryStore.checkUpsert(batch.stream().map(Prepared::memory).toList(), Embeddings.none(), null);
        List<Memory> result = new ArrayList<>(batch.size());
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            Prepared p = batch.get(i);
            result.add(p.unchanged() ? p.before() : null);
            if (!p.unchanged()) {
                positions.add(i);
            }
        }
        if (positions.isEmpty()) {
            return List.copyOf(result);
        }
        List<Prepared> changed = positions.stream().map(batch::get).toList();
        List<Memory> toWrite = changed.stream().map(Prepared::memory).toList();
        boolean[] unnamed = new boolean[changed.size()];
        boolean[] dated = new boolean[changed.size()];
        for (int c = 0; c < changed.size(); c++) {
            unnamed[c] = changed.get(c).unnamed();
            dated[c] = changed.get(c).dated();
        }
        Embeddings embeddings = embed(changed);
        DuplicateFinder.Outcome outcome;
        List<Memory> revised;
        lock.lock();
        try {
            ensureOpen.run();
            outcome = duplicates.resolve(toWrite, embeddings, unnamed, dated, now);
            write(outcome.written(), outcome.embeddings(), now);
            outcome.evidence().forEach(store::recordEvidence);
            revised = supersede(changed, outcome, now);
        } finally {
            lock.unlock();
        }
        tokenCounter.countWritten(outcome.written());
        tokenCounter.countWritten(revised);
        Map<String, Memory> revisedByKey = new HashMap<>();
        revised.forEach(m -> revisedByKey.put(key(m), m));
        for (int c = 0; c < positions.size(); c++) {
            Memory returned = outcome.returned().get(c);
            result.set(positions.get(c), revisedByKey.getOrDefault(key(returned), returned));
        }
        return List.copyOf(result);
    }

    /**
     * Applies the supersession policy to the memories the write added (not those that replaced a stored one by id),
     * writing what it changed; the caller holds the lock.
     *
     * @return the memories it changed, as written; empty when the policy is off
     */
    private List<Memory> supersede(List<Prepared> changed, DuplicateFinder.Outcome outcome, Instant now) {
        if (supersessions.isOff() || outcome.embeddings().isEmpty()) {
            return List.of();
        }
        Set<String> fresh = new HashSet<>();
        for (Prepared p : changed) {
            if (p.before() == null) {
                fresh.add(key(p.memory()));
            }
        }
        List<Memory> added = new ArrayList<>();
        Map<String, float[]> vectors = new HashMap<>();
        for (int i = 0; i < outcome.written().size(); i++) {
            Memory m = outcome.written().get(i);
            if (fresh.contains(key(m))) {
                added.add(m);
                vectors.put(m.id(), outcome.embeddings().vector(i));
            }
        }
        List<Memory> revised = supersessions.changes(added, vectors, now);
        if (revised.isEmpty()) {
            return revised;
        }
        List<float[]> revisedVectors = new ArrayList<>(revised.size());
        for (Memory m : revised) {
            float[] v = vectors.get(m.id());
            if (v == null) {
                VectorIndex index = indexes.indexFor(m.namespace());
                v = new float[index.dimension()];
                index.gather(List.of(m.id()), v);
            }
            revisedVectors.add(v);
        }
        write(revised, Embeddings.of(space, revisedVectors), now);
        return revised;
    }

    /**
     * One memory of a batch, ready to store.
     *
     * @param memory with its id and times filled in
     * @param before the stored memory it replaces, or null
     * @param unnamed whether it was given without an id
     * @param dated whether it was given a {@code createdAt}
     */
    private record Prepared(Memory memory, Memory before, boolean unnamed, boolean dated) {
        /** Whether it equals the stored memory but for {@code updatedAt}, so there is nothing to write. */
        boolean unchanged() {
            return before != null && MemoryChanges.same(memory, before);
        }
    }

    /**
     * Gives each memory an id (a random one), a creation time and a recorded time (the stored memory's it replaces,
     * else now).
     */
    private List<Prepared> prepare(Collection<Memory> memories, Instant now) {
        Map<String, Memory> stored = stored(memories);
        List<Prepared> out = new ArrayList<>(memories.size());
        int i = 0;
        for (Memory m : memories) {
            Objects.requireNonNull(m, "memory " + i++);
            Memory before = m.id() == null ? null : stored.get(key(m));
            Memory.Builder b = m.toBuilder();
            if (m.id() == null) {
                b.id(MemoryIds.random());
            }
            if (m.createdAt() == null) {
                b.createdAt(before != null ? before.createdAt() : now).updatedAt(now);
            }
            if (m.recordedAt() == null) {
                b.recordedAt(before != null ? before.recordedAt() : now);
            }
            out.add(new Prepared(b.build(), before, m.id() == null, m.createdAt() != null));
        }
        return out;
    }

    /** The stored memories the given ones would replace, by {@link #key}; memories given without an id replace none. */
    private Map<String, Memory> stored(Collection<Memory> memories) {
        Map<String, List<String>> idsByNamespace = new LinkedHashMap<>();
        for (Memory m : memories) {
            if (m != null && m.id() != null) {
                idsByNamespace.computeIfAbsent(m.namespace(), k -> new ArrayList<>()).add(m.id());
            }
        }
        Map<String, Memory> out = new HashMap<>();
        idsByNamespace.forEach((namespace, ids) -> store.getAll(namespace, ids)
                .forEach(s -> out.put(key(s.memory()), s.memory())));
        return out;
    }

    private static String key(Memory m) {
        return m.namespace() + '\u0000' + m.id();
    }

    /** Stores the memories with their vectors, keeping the indexes and pins in step; the caller holds the lock. */
    private void write(List<Memory> prepared, Embeddings embeddings, Instant now) {
        if (prepared.isEmpty()) {
            return;
        }
        Map<String, List<Integer>> byNamespace = new LinkedHashMap<>();
        for (int j = 0; j < prepared.size(); j++) {
            byNamespace.computeIfAbsent(prepared.get(j).namespace(), k -> new ArrayList<>()).add(j);
        }
        // Loaded before the write, so that a namespace's index never holds a vector twice.
        byNamespace.keySet().forEach(indexes::indexFor);
        try {
            store.upsertAll(prepared, embeddings);
            pinned.written(prepared);
            authors.written(prepared);
            for (Map.Entry<String, List<Integer>> e : byNamespace.entrySet()) {
                VectorIndex index = indexes.loaded(e.getKey());
                if (index == null) {
                    continue;
                }
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
                    indexes.resized(e.getKey());
                }
            }
        } catch (RuntimeException e) {
            // The store may have committed before the failure (its acknowledgment lost, or the purge after it
            // failed). A retry of the same memories then finds them stored and unchanged and writes nothing, and a
            // shared store's change log leaves out this curator's own changes: so the indexes and pins are read
            // again from the store, not guessed, or they would lack the memories for good.
            byNamespace.keySet().forEach(namespace -> {
                indexes.drop(namespace);
                pinned.reload(namespace);
                authors.reload(namespace);
            });
            throw e;
        }
    }

    /**
     * The memories' vectors, none without an embedder: a memory that replaces a stored one with the same text keeps
     * the vector the index holds for it (archiving or superseding a memory embeds nothing); the others are embedded in
     * batches.
     */
    private Embeddings embed(List<Prepared> changed) {
        if (embedder == null || changed.isEmpty()) {
            return Embeddings.none();
        }
        float[][] vectors = new float[changed.size()][];
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < changed.size(); i++) {
            Memory m = changed.get(i).memory();
            Memory before = changed.get(i).before();
            VectorIndex index = before != null && before.text().equals(m.text()) ? indexes.indexFor(m.namespace())
                    : null;
            if (index != null) {
                float[] row = new float[index.dimension()];
                if (index.gather(List.of(m.id()), row)[0]) {
                    vectors[i] = row;
                    continue;
                }
            }
            missing.add(i);
        }
        for (int from = 0; from < missing.size(); from += embedBatchSize) {
            List<Integer> batch = missing.subList(from, Math.min(missing.size(), from + embedBatchSize));
            List<float[]> embedded = Embeddings.embed(embedder,
                    batch.stream().map(i -> changed.get(i).memory().text()).toList(),
                    "memory '" + changed.get(batch.get(0)).memory().id() + "'");
            for (int j = 0; j < batch.size(); j++) {
                vectors[batch.get(j)] = embedded.get(j);
            }
        }
        return Embeddings.of(space, java.util.Arrays.asList(vectors));
    }

    /**
     * For a dry run: the ids of the stored memories the given new memories (with ids, not stored) would supersede
     * under the curator's policy, null where none; nothing is written. Embeds them (without an embedder, or with the
     * policy off, none would).
     */
    public List<String> wouldUpdate(List<Memory> memories, Instant now) {
        List<String> out = new ArrayList<>(java.util.Collections.nCopies(memories.size(), (String) null));
        if (embedder == null || supersessions.isOff() || memories.isEmpty()) {
            return out;
        }
        List<float[]> vectors = Embeddings.embed(embedder, memories.stream().map(Memory::text).toList(),
                "memory '" + memories.get(0).id() + "'");
        for (int i = 0; i < memories.size(); i++) {
            float[] v = dev.memfas.core.vector.Vectors.normalizedCopy(vectors.get(i), embedder.dimension());
            Memory old = supersessions.wouldUpdate(memories.get(i), v, now);
            out.set(i, old == null ? null : old.id());
        }
        return out;
    }

    /** Archives live memories of one namespace; their vectors stay in the index, where turns skip them. */
    public List<String> archive(String namespace, List<String> memoryIds, Instant at) {
        if (memoryIds.isEmpty()) {
            return List.of();
        }
        lock.lock();
        try {
            ensureOpen.run();
            return store.archive(namespace, memoryIds, at);
        } finally {
            lock.unlock();
        }
    }

    /** Deletes memories of one namespace, keeping the index and pins in step; returns how many existed. */
    public int forgetAll(String namespace, List<String> memoryIds) {
        if (memoryIds.isEmpty()) {
            return 0;
        }
        lock.lock();
        try {
            ensureOpen.run();
            VectorIndex index = indexes.indexFor(namespace);
            int deleted = store.deleteAll(namespace, memoryIds);
            pinned.removed(namespace, memoryIds);
            if (deleted > 0) {
                authors.removed(namespace);
            }
            if (index != null) {
                index.removeAll(memoryIds);
            }
            return deleted;
        } finally {
            lock.unlock();
        }
    }

    public boolean forget(String namespace, String memoryId) {
        lock.lock();
        try {
            VectorIndex index = indexes.indexFor(namespace);
            boolean deleted = store.delete(namespace, memoryId);
            pinned.removed(namespace, List.of(memoryId));
            if (deleted) {
                authors.removed(namespace);
            }
            if (index != null) {
                index.removeAll(List.of(memoryId));
            }
            return deleted;
        } finally {
            lock.unlock();
        }
    }

    public void addTrigger(Trigger trigger) {
        triggerStore.putTrigger(trigger);
        triggers.changed(trigger.namespace());
    }

    public boolean removeTrigger(String namespace, String keyword) {
        boolean removed = triggerStore.removeTrigger(namespace, keyword);
        triggers.changed(namespace);
        return removed;
    }
}
