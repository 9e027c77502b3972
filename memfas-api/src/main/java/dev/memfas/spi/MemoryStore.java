package dev.memfas.spi;

import dev.memfas.MemfasException;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.State;
import dev.memfas.Trigger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Where memories, their vectors and their access statistics are kept, and searched: the persistence contract every
 * store implements (memfas ships an in-memory store, used by default, a SQLite store and a PostgreSQL store). A store
 * that also keeps state, triggers or token counts durably implements {@link StateStore}, {@link TriggerStore} or
 * {@link TokenCountStore} as well; for one that does not, the curator keeps them in memory.
 *
 * <p>Rules every implementation follows (checked by {@code dev.memfas.testkit.MemoryStoreContract}, the JUnit 5 test
 * class in the {@code memfas-testkit} module):
 * <ul>
 *   <li>Namespaces are walls: no read in one namespace returns anything of another.</li>
 *   <li>Writes are atomic: a batch that fails a check or an I/O step leaves the store as it was.</li>
 *   <li>Replacing a memory keeps its access statistics.</li>
 *   <li>Untrusted text (memory text, queries) is data: it can never break the store's query language.</li>
 *   <li>Implementations are thread-safe.</li>
 * </ul>
 */
public interface MemoryStore extends AutoCloseable {

    /**
     * Adds or replaces memories (by namespace and id) in one atomic step, with their vectors if given.
     *
     * <p>Without vectors, any vector a replaced memory had is removed, since its text may have changed. The first
     * batch with vectors fixes the store's {@link #vectorSpace()}.
     *
     * @param memories the memories; each has an id, createdAt and updatedAt
     * @param embeddings one vector per memory in the same order, or {@link Embeddings#none()}
     * @throws IllegalArgumentException if a memory lacks id, createdAt or updatedAt, an id appears twice in the batch,
     *     the number of vectors differs from the number of memories, or the vectors' space differs from the store's
     * @throws MemfasException if the store cannot be written
     */
    void upsertAll(List<Memory> memories, Embeddings embeddings);

    /**
     * Runs the checks {@link #upsertAll(List, Embeddings)} promises, for implementations to call before writing.
     *
     * @param current the store's vector space, or {@code null} if it has none yet
     * @throws IllegalArgumentException if a memory lacks id, createdAt or updatedAt, an id appears twice, the number
     *     of vectors differs from the number of memories, or the vectors' space differs from {@code current}
     */
    static void checkUpsert(List<Memory> memories, Embeddings embeddings, VectorSpace current) {
        Objects.requireNonNull(memories, "memories");
        Objects.requireNonNull(embeddings, "embeddings");
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < memories.size(); i++) {
            Memory m = Objects.requireNonNull(memories.get(i), "memory " + i);
            if (m.id() == null) {
                throw new IllegalArgumentException("memory " + i + " has no id");
            }
            if (m.createdAt() == null || m.updatedAt() == null) {
                throw new IllegalArgumentException("memory '" + m.id() + "' has no createdAt or updatedAt");
            }
            if (!seen.add(m.namespace() + '\u0000' + m.id())) {
                throw new IllegalArgumentException("memory id appears twice in the batch: '" + m.id() + "'");
            }
        }
        if (!embeddings.isEmpty()) {
            if (embeddings.size() != memories.size()) {
                throw new IllegalArgumentException("vector count differs from memory count: "
                        + embeddings.size() + " != " + memories.size());
            }
            if (current != null && !current.equals(embeddings.space())) {
                throw new IllegalArgumentException("vector space differs from the store's: "
                        + embeddings.space() + " != " + current
                        + " (re-embed the store to change the embedding model)");
            }
        }
    }

    /** Adds or replaces memories without vectors; see {@link #upsertAll(List, Embeddings)}. */
    default void upsertAll(List<Memory> memories) {
        upsertAll(memories, Embeddings.none());
    }

    /**
     * Reads the memories with the given ids from one namespace, in the order of {@code ids}; missing ids are skipped
     * and repeated ids read once.
     */
    List<StoredMemory> getAll(String namespace, Collection<String> ids);

    /** Reads one memory. */
    default Optional<StoredMemory> get(String namespace, String id) {
        List<StoredMemory> found = getAll(namespace, List.of(id));
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    /**
     * Deletes memories (with their vectors and access statistics) from one namespace in one atomic step.
     *
     * @return how many existed and were deleted
     */
    int deleteAll(String namespace, Collection<String> ids);

    /**
     * A memory together with the memories stored just before and just after it in its namespace: up to {@code radius}
     * on each side, in the order the memories were first stored. Replacing a memory keeps its place; deleted memories
     * leave no gap. Turns of a conversation, or the chunks of a file, stored one after another are each other's
     * neighbors; the curator reads them as context for its best matches.
     *
     * @param radius how many neighbors to read on each side, in [1, {@value #MAX_NEIGHBOR_RADIUS}]
     * @return the memories in storage order, the given one included; empty if it does not exist
     * @throws IllegalArgumentException if the radius is out of range
     */
    List<StoredMemory> neighborhood(String namespace, String id, int radius);

    /**
     * The {@link #neighborhood(String, String, int) neighborhoods} of several memories of one namespace at once. The
     * default asks for each in turn; a store across a network should read them in one round trip.
     *
     * @return by id, in the order of {@code ids}, the neighborhood of each memory that exists; repeated ids once
     * @throws IllegalArgumentException if the radius is out of range
     */
    default Map<String, List<StoredMemory>> neighborhoods(String namespace, Collection<String> ids, int radius) {
        Objects.requireNonNull(ids, "ids");
        Map<String, List<StoredMemory>> out = new java.util.LinkedHashMap<>();
        for (String id : ids) {
            checkNeighborhood(namespace, id, radius);
            if (!out.containsKey(id)) {
                List<StoredMemory> window = neighborhood(namespace, id, radius);
                if (!window.isEmpty()) {
                    out.put(id, window);
                }
            }
        }
        return out;
    }

    /** The largest radius {@link #neighborhood(String, String, int)} accepts. */
    int MAX_NEIGHBOR_RADIUS = 100;

    /** Runs the checks {@link #neighborhood(String, String, int)} promises, for implementations to call first. */
    static void checkNeighborhood(String namespace, String id, int radius) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(id, "id");
        if (radius < 1 || radius > MAX_NEIGHBOR_RADIUS) {
            throw new IllegalArgumentException("neighbor radius must be in [1, " + MAX_NEIGHBOR_RADIUS + "]: "
                    + radius);
        }
    }

    /**
     * Marks live memories of one namespace archived at the given time ({@link Memory#archivedAt()}, and
     * {@code updatedAt}), keeping each one's state before as a version, as a replace that changed only that would;
     * everything else (vector, statistics, storage order) stays. Ids that name no memory, or an archived one, are
     * skipped.
     *
     * @return the ids archived, in the order given
     */
    List<String> archive(String namespace, Collection<String> ids, Instant at);

    /**
     * Raises the evidence count of memories of one namespace by one per occurrence of their id; ids that name no
     * memory are ignored. Replacing a memory keeps its evidence count, as it keeps its access statistics.
     */
    void recordEvidence(String namespace, Collection<String> ids);

    /**
     * The earlier states of one memory, oldest first: each time {@code upsertAll} replaced the memory, the state it
     * replaced is kept, so nothing an update changes is lost. Deleting a memory deletes its earlier states too, and
     * so does purging it when it expires.
     *
     * @return the states the memory had before its current one; empty if it was never replaced or does not exist
     */
    List<Memory> versions(String namespace, String id);

    /** Deletes one memory; returns whether it existed. */
    default boolean delete(String namespace, String id) {
        return deleteAll(namespace, List.of(id)) > 0;
    }

    /** Visits the memories of one namespace that pass the filter, in no particular order. */
    void forEach(String namespace, MemoryFilter filter, Consumer<? super Memory> action);

    /**
     * Visits the memories of one namespace that pass the filter with their statistics, in no particular order. The
     * default reads them again by id; a store that reads both at once should say so.
     */
    default void forEachStored(String namespace, MemoryFilter filter, Consumer<? super StoredMemory> action) {
        Objects.requireNonNull(action, "action");
        List<String> ids = new ArrayList<>();
        forEach(namespace, filter, m -> ids.add(m.id()));
        for (int from = 0; from < ids.size(); from += 500) {
            getAll(namespace, ids.subList(from, Math.min(ids.size(), from + 500))).forEach(action);
        }
    }

    /**
     * The distinct authors of one namespace's memories ({@link Memory#author()}, of those that have one), in no
     * particular order. The default visits every memory; a store that can read the authors alone should.
     */
    default Set<String> authors(String namespace) {
        Objects.requireNonNull(namespace, "namespace");
        Set<String> authors = new HashSet<>();
        forEach(namespace, MemoryFilter.all(), m -> {
            if (m.author() != null) {
                authors.add(m.author());
            }
        });
        return authors;
    }

    /** How many memories one namespace holds. */
    long count(String namespace);

    /** The namespaces that hold at least one memory or trigger. */
    Set<String> namespaces();

    /**
     * Records that the given memories were accessed (included in a context, or reported helpful) at the given time:
     * each id's access count rises by one per occurrence and its last access becomes the later of the old and
     * {@code at}. Unknown ids are ignored.
     */
    void recordAccess(String namespace, Collection<String> ids, Instant at);

    /**
     * Ranks the namespace's memories against a free-text query with BM25.
     *
     * <p>The query is plain text: any operator syntax of the underlying engine in it is matched literally or
     * ignored, never interpreted, and never raises an error.
     *
     * @param limit the most hits to return, positive
     * @return hits by descending score; empty when nothing matches
     * @throws IllegalArgumentException if the limit is not positive
     */
    List<LexicalHit> searchLexical(String namespace, String query, int limit);

    /** The model and dimension of the vectors this store holds; empty until the first vector is stored. */
    Optional<VectorSpace> vectorSpace();

    /** Receives one stored vector. */
    @FunctionalInterface
    interface VectorConsumer {
        /** Takes one memory's vector; the array is the consumer's to keep. */
        void accept(String memoryId, float[] vector);
    }

    /**
     * Visits every stored vector of one namespace, in no particular order. The action should not call back into the
     * store: an implementation may hold a read cursor open while it runs.
     */
    void forEachVector(String namespace, VectorConsumer action);

    /** Releases the store's resources. Further use fails with {@link IllegalStateException}. */
    @Override
    void close();
}
