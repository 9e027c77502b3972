package dev.memfas.core.vector;

import dev.memfas.MemfasException;
import dev.memfas.core.lifecycle.ChangeFollower;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.VectorSpace;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The vector index of each namespace, loaded from the store on first use (the curator loads every namespace's when it
 * is built, so the first turn does not pay for it) and kept in step by the curator's writes and by
 * {@link ChangeFollower}. Without an embedder there are none. Thread-safe.
 */
public final class NamespaceIndexes {
    /** Vectors are loaded in chunks, so a large store's vectors are not held twice while an index fills. */
    private static final int LOAD_CHUNK = 4096;

    private final MemoryStore store;
    /** The dimension of the embedder's vectors, or 0 without an embedder. */
    private final int dimension;
    private final ConcurrentHashMap<String, VectorIndex> indexes = new ConcurrentHashMap<>();

    public NamespaceIndexes(MemoryStore store, int dimension) {
        this.store = store;
        this.dimension = dimension;
    }

    /** Whether there are indexes at all: false without an embedder. */
    boolean enabled() {
        return dimension > 0;
    }

    /** The namespace's index, loaded from the store if it is not yet; null without an embedder. */
    public VectorIndex indexFor(String namespace) {
        if (!enabled()) {
            return null;
        }
        return indexes.computeIfAbsent(namespace, this::load);
    }

    /** The namespace's index if it is loaded, else null. */
    public VectorIndex loaded(String namespace) {
        return indexes.get(namespace);
    }

    /** Drops the namespace's index, to be loaded again on next use. */
    public void drop(String namespace) {
        indexes.remove(namespace);
    }

    /**
     * Checks that the store's vectors are of the embedder's vector space, then loads every namespace's index, so the
     * first turn does not pay for it.
     *
     * @throws MemfasException if the store holds vectors of another model
     */
    public void loadAll(VectorSpace space) {
        store.vectorSpace().ifPresent(stored -> {
            if (!stored.equals(space)) {
                throw new MemfasException("the store holds vectors of " + stored + " but the embedder is " + space
                        + "; re-embed the store or use the matching embedder");
            }
        });
        store.namespaces().forEach(this::indexFor);
    }

    public void dropAll() {
        indexes.clear();
    }

    /** How many vectors one namespace's index holds, 0 if it is not loaded. */
    public long vectorCount(String namespace) {
        VectorIndex index = indexes.get(namespace);
        return index == null ? 0 : index.size();
    }

    /** How many vectors the loaded indexes hold. */
    public long vectorCount() {
        long vectors = 0;
        for (VectorIndex index : indexes.values()) {
            vectors += index.size();
        }
        return vectors;
    }

    private VectorIndex load(String namespace) {
        VectorIndex index = new VectorIndex(dimension);
        List<String> ids = new ArrayList<>(LOAD_CHUNK);
        List<float[]> vectors = new ArrayList<>(LOAD_CHUNK);
        store.forEachVector(namespace, (id, v) -> {
            ids.add(id);
            vectors.add(v);
            if (ids.size() == LOAD_CHUNK) {
                index.putAll(ids, vectors);
                ids.clear();
                vectors.clear();
            }
        });
        index.putAll(ids, vectors);
        return index;
    }
}
