package dev.memfas.core.store;

import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.State;
import dev.memfas.Trigger;
import dev.memfas.core.text.Bm25Index;
import dev.memfas.spi.Embeddings;
import dev.memfas.spi.LexicalHit;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.StateStore;
import dev.memfas.spi.StoredMemory;
import dev.memfas.spi.TokenCountStore;
import dev.memfas.spi.TriggerStore;
import dev.memfas.spi.VectorSpace;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;

/**
 * A {@link MemoryStore} held in the heap, with an in-memory BM25 index: the default store, and the reference for the
 * store contract. Nothing survives the process.
 *
 * <p>Thread-safe: one read-write lock guards everything, so readers run in parallel and each write is atomic. That
 * one lock is why the class stays whole: every method of the contract is a few lines under it, over the namespace's
 * entries, whose changes live in {@link InMemoryNamespace}; the algorithms in their own classes ({@link Bm25Index},
 * {@link StorageOrder}).
 */
public final class InMemoryMemoryStore implements MemoryStore, StateStore, TriggerStore, TokenCountStore {

    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, InMemoryNamespace> namespaces = new HashMap<>();
    private VectorSpace vectorSpace;
    private final InMemoryState state = new InMemoryState();
    private boolean closed;

    @Override
    public void upsertAll(List<Memory> memories, Embeddings embeddings) {
        Objects.requireNonNull(memories, "memories");
        Objects.requireNonNull(embeddings, "embeddings");
        lock.writeLock().lock();
        try {
            ensureOpen();
            MemoryStore.checkUpsert(memories, embeddings, vectorSpace);
            if (!embeddings.isEmpty()) {
                vectorSpace = embeddings.space();
            }
            for (int i = 0; i < memories.size(); i++) {
                Memory m = memories.get(i);
                InMemoryNamespace ns = namespaces.computeIfAbsent(m.namespace(), k -> new InMemoryNamespace());
                ns.put(m, embeddings.isEmpty() ? null : embeddings.vector(i).clone());
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public List<StoredMemory> getAll(String namespace, Collection<String> ids) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(ids, "ids");
        lock.readLock().lock();
        try {
            ensureOpen();
            InMemoryNamespace ns = namespaces.get(namespace);
            if (ns == null) {
                return List.of();
            }
            List<StoredMemory> out = new ArrayList<>(ids.size());
            for (String id : new LinkedHashSet<>(ids)) {
                InMemoryNamespace.Entry e = ns.memories.get(id);
                if (e != null) {
                    out.add(e.stored());
                }
            }
            return out;
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public List<StoredMemory> neighborhood(String namespace, String id, int radius) {
        MemoryStore.checkNeighborhood(namespace, id, radius);
        lock.readLock().lock();
        try {
            ensureOpen();
            InMemoryNamespace ns = namespaces.get(namespace);
            InMemoryNamespace.Entry entry = ns == null ? null : ns.memories.get(id);
            if (entry == null) {
                return List.of();
            }
            List<StoredMemory> out = new ArrayList<>(2 * radius + 1);
            for (InMemoryNamespace.Entry e : ns.order.around(entry, radius)) {
                out.add(e.stored());
            }
            return out;
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public List<String> archive(String namespace, Collection<String> ids, Instant at) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(ids, "ids");
        Objects.requireNonNull(at, "at");
        lock.writeLock().lock();
        try {
            ensureOpen();
            InMemoryNamespace ns = namespaces.get(namespace);
            List<String> archived = new ArrayList<>();
            if (ns == null) {
                return archived;
            }
            for (String id : new LinkedHashSet<>(ids)) {
                if (ns.archive(Objects.requireNonNull(id, "id"), at)) {
                    archived.add(id);
                }
            }
            return archived;
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public void recordEvidence(String namespace, Collection<String> ids) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(ids, "ids");
        lock.writeLock().lock();
        try {
            ensureOpen();
            InMemoryNamespace ns = namespaces.get(namespace);
            if (ns == null) {
                return;
            }
            for (String id : ids) {
                InMemoryNamespace.Entry e = ns.memories.get(Objects.requireNonNull(id, "id"));
                if (e != null) {
                    e.evidenceCount++;
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public void saveState(String namespace, String key, String value) {
        saveState(namespace, key, value, Instant.now());
    }

    @Override
    public void saveState(String namespace, String key, String value, Instant updatedAt) {
        checkOpen();
        state.save(namespace, key, value, updatedAt);
    }

    @Override
    public Optional<String> loadState(String namespace, String key) {
        checkOpen();
        return state.load(namespace, key);
    }

    @Override
    public List<State.Entry> listState(String namespace, boolean includePreview) {
        checkOpen();
        return state.list(namespace, includePreview);
    }

    @Override
    public Map<String, String> searchState(String namespace, String glob, int limit) {
        checkOpen();
        return state.search(namespace, glob, limit);
    }

    @Override
    public boolean deleteState(String namespace, String key) {
        checkOpen();
        return state.delete(namespace, key);
    }

    @Override
    public int clearState(String namespace, String exceptPrefix) {
        checkOpen();
        return state.clear(namespace, exceptPrefix);
    }

    @Override
    public List<Memory> versions(String namespace, String id) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(id, "id");
        return read(() -> {
            InMemoryNamespace ns = namespaces.get(namespace);
            List<Memory> kept = ns == null ? null : ns.versions.get(id);
            return kept == null ? List.of() : List.copyOf(kept);
        });
    }

    @Override
    public int deleteAll(String namespace, Collection<String> ids) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(ids, "ids");
        lock.writeLock().lock();
        try {
            ensureOpen();
            InMemoryNamespace ns = namespaces.get(namespace);
            if (ns == null) {
                return 0;
            }
            int deleted = 0;
            for (String id : new HashSet<>(ids)) {
                if (ns.memories.containsKey(id)) {
                    ns.remove(id);
                    deleted++;
                }
            }
            if (ns.memories.isEmpty() && ns.triggers.isEmpty()) {
                namespaces.remove(namespace);
            }
            return deleted;
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public void forEach(String namespace, MemoryFilter filter, Consumer<? super Memory> action) {
        Objects.requireNonNull(action, "action");
        forEachStored(namespace, filter, s -> action.accept(s.memory()));
    }

    @Override
    public void forEachStored(String namespace, MemoryFilter filter, Consumer<? super StoredMemory> action) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(action, "action");
        List<StoredMemory> matching = new ArrayList<>();
        lock.readLock().lock();
        try {
            ensureOpen();
            InMemoryNamespace ns = namespaces.get(namespace);
            if (ns != null) {
                for (InMemoryNamespace.Entry e : ns.memories.values()) {
                    if (filter.test(e.memory)) {
                        matching.add(e.stored());
                    }
                }
            }
        } finally {
            lock.readLock().unlock();
        }
        // The action runs outside the lock so it may call back into the store.
        matching.forEach(action);
    }

    @Override
    public long count(String namespace) {
        Objects.requireNonNull(namespace, "namespace");
        return read(() -> {
            InMemoryNamespace ns = namespaces.get(namespace);
            return ns == null ? 0 : ns.memories.size();
        });
    }

    @Override
    public Set<String> namespaces() {
        return read(() -> {
            return Set.copyOf(new TreeSet<>(namespaces.keySet()));
        });
    }

    @Override
    public void recordAccess(String namespace, Collection<String> ids, Instant at) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(ids, "ids");
        Objects.requireNonNull(at, "at");
        lock.writeLock().lock();
        try {
            ensureOpen();
            InMemoryNamespace ns = namespaces.get(namespace);
            if (ns == null) {
                return;
            }
            for (String id : ids) {
                InMemoryNamespace.Entry e = ns.memories.get(id);
                if (e != null) {
                    e.accessCount++;
                    if (e.lastAccessedAt == null || at.isAfter(e.lastAccessedAt)) {
                        e.lastAccessedAt = at;
                    }
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public void putTokenCounts(String tokenizerKey, Collection<TokenCount> counts) {
        Objects.requireNonNull(tokenizerKey, "tokenizerKey");
        Objects.requireNonNull(counts, "counts");
        lock.writeLock().lock();
        try {
            ensureOpen();
            for (TokenCount count : counts) {
                Memory m = count.memory();
                InMemoryNamespace ns = namespaces.get(m.namespace());
                InMemoryNamespace.Entry e = ns == null ? null : ns.memories.get(m.id());
                if (e != null && e.memory.equals(m)) {
                    e.tokenCounts.put(tokenizerKey, count.tokens());
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public Map<String, Integer> tokenCounts(String namespace, String tokenizerKey, Collection<String> ids) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(tokenizerKey, "tokenizerKey");
        Objects.requireNonNull(ids, "ids");
        lock.readLock().lock();
        try {
            ensureOpen();
            InMemoryNamespace ns = namespaces.get(namespace);
            Map<String, Integer> out = new HashMap<>();
            if (ns != null) {
                for (String id : ids) {
                    InMemoryNamespace.Entry e = ns.memories.get(id);
                    Integer tokens = e == null ? null : e.tokenCounts.get(tokenizerKey);
                    if (tokens != null) {
                        out.put(id, tokens);
                    }
                }
            }
            return out;
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public List<LexicalHit> searchLexical(String namespace, String query, int limit) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(query, "query");
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        return read(() -> {
            InMemoryNamespace ns = namespaces.get(namespace);
            return ns == null ? List.of() : ns.lexical.search(query, limit);
        });
    }

    @Override
    public Optional<VectorSpace> vectorSpace() {
        return read(() -> {
            return Optional.ofNullable(vectorSpace);
        });
    }

    @Override
    public void forEachVector(String namespace, VectorConsumer action) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(action, "action");
        Map<String, float[]> vectors = new LinkedHashMap<>();
        lock.readLock().lock();
        try {
            ensureOpen();
            InMemoryNamespace ns = namespaces.get(namespace);
            if (ns != null) {
                ns.memories.forEach((id, e) -> {
                    if (e.vector != null) {
                        vectors.put(id, e.vector.clone());
                    }
                });
            }
        } finally {
            lock.readLock().unlock();
        }
        vectors.forEach(action::accept);
    }

    @Override
    public void putTrigger(Trigger trigger) {
        Objects.requireNonNull(trigger, "trigger");
        lock.writeLock().lock();
        try {
            ensureOpen();
            namespaces.computeIfAbsent(trigger.namespace(), k -> new InMemoryNamespace())
                    .triggers.put(trigger.keyword().toLowerCase(Locale.ROOT), trigger);
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public boolean removeTrigger(String namespace, String keyword) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(keyword, "keyword");
        lock.writeLock().lock();
        try {
            ensureOpen();
            InMemoryNamespace ns = namespaces.get(namespace);
            boolean removed = ns != null && ns.triggers.remove(keyword.strip().toLowerCase(Locale.ROOT)) != null;
            if (removed && ns.memories.isEmpty() && ns.triggers.isEmpty()) {
                namespaces.remove(namespace);
            }
            return removed;
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public List<Trigger> triggers(String namespace) {
        Objects.requireNonNull(namespace, "namespace");
        return read(() -> {
            InMemoryNamespace ns = namespaces.get(namespace);
            return ns == null ? List.of() : List.copyOf(ns.triggers.values());
        });
    }

    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            closed = true;
            namespaces.clear();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** What {@code read} returns, computed under the read lock of an open store. */
    private <T> T read(java.util.function.Supplier<T> reading) {
        lock.readLock().lock();
        try {
            ensureOpen();
            return reading.get();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Throws if closed; for the calls that need no other lock. */
    private void checkOpen() {
        read(() -> null);
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("memory store is closed");
        }
    }
}
