package dev.memfas.core.vector;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.memfas.MemfasException;
import dev.memfas.core.lifecycle.ChangeFollower;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.VectorSpace;
import java.util.ArrayList;
import java.util.List;

/**
 * The vector index of each namespace, loaded from the store on the namespace's first use and kept in step by the
 * curator's writes and by {@link ChangeFollower}, within a memory limit: when the loaded indexes take more than
 * {@code memoryLimit} bytes ({@link VectorIndex#bytes}), those of the namespaces least likely to be used again are
 * dropped (Caffeine's policy, by recency and frequency: a namespace newly loaded stays only if it has been used more
 * often than the one it would displace, so one seen once does not push out those in steady use), and a dropped
 * namespace loads again on its next use. So the memory a curator holds grows with the namespaces in use, not with
 * those stored. An index larger than the limit alone is kept, alone. Without an embedder there are none. Thread-safe.
 */
public final class NamespaceIndexes {
    /** Vectors are loaded in chunks, so a large store's vectors are not held twice while an index fills. */
    private static final int LOAD_CHUNK = 4096;

    private final MemoryStore store;
    /** The dimension of the embedder's vectors, or 0 without an embedder. */
    private final int dimension;
    private final Cache<String, VectorIndex> indexes;

    /** The indexes of a store's namespaces, for vectors of {@code dimension} (0: none), in at most that many bytes. */
    public NamespaceIndexes(MemoryStore store, int dimension, long memoryLimit) {
        if (memoryLimit < 1) {
            throw new IllegalArgumentException("index memory limit must be positive: " + memoryLimit);
        }
        this.store = store;
        this.dimension = dimension;
        // A weight is at most the limit, so that one index larger than the limit stays (alone) rather than being
        // dropped as soon as it is loaded and loaded again every turn.
        this.indexes = Caffeine.newBuilder().maximumWeight(memoryLimit)
                .weigher((String namespace, VectorIndex index) -> (int) Math.min(Math.min(index.bytes(), memoryLimit),
                        Integer.MAX_VALUE))
                .executor(Runnable::run)
                .build();
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
        return indexes.get(namespace, this::load);
    }

    /** The namespace's index if it is loaded, else null. */
    public VectorIndex loaded(String namespace) {
        return indexes.getIfPresent(namespace);
    }

    /** The namespace's index changed size: weighed again, which may drop others. */
    public void resized(String namespace) {
        indexes.asMap().computeIfPresent(namespace, (ns, index) -> index);
    }

    /** Drops the namespace's index, to be loaded again on next use. */
    public void drop(String namespace) {
        indexes.invalidate(namespace);
    }

    /**
     * Checks that the store's vectors are of the embedder's vector space. Loads nothing: each namespace's index is
     * loaded on its first use.
     *
     * @throws MemfasException if the store holds vectors of another model
     */
    public void checkSpace(VectorSpace space) {
        store.vectorSpace().ifPresent(stored -> {
            if (!stored.equals(space)) {
                throw new MemfasException("the store holds vectors of " + stored + " but the embedder is " + space
                        + "; re-embed the store or use the matching embedder");
            }
        });
    }

    public void dropAll() {
        indexes.invalidateAll();
    }

    /** How many vectors one namespace's index holds, 0 if it is not loaded. */
    public long vectorCount(String namespace) {
        VectorIndex index = indexes.getIfPresent(namespace);
        return index == null ? 0 : index.size();
    }

    /** How many vectors the loaded indexes hold. */
    public long vectorCount() {
        long vectors = 0;
        for (VectorIndex index : indexes.asMap().values()) {
            vectors += index.size();
        }
        return vectors;
    }

    /** How many bytes the loaded indexes weigh, as their limit counts them. */
    public long bytes() {
        indexes.cleanUp();
        return indexes.policy().eviction().orElseThrow().weightedSize().orElseThrow();
    }

    /** How many namespaces' indexes are loaded. */
    public long loadedCount() {
        indexes.cleanUp();
        return indexes.estimatedSize();
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
