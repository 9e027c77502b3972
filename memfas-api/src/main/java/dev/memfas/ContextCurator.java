package dev.memfas;

import dev.memfas.spi.StoredMemory;
import dev.memfas.upkeep.Upkeep;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Curates an agent's context every turn: keeps memories, and for each query returns the best of them that fit a token
 * budget, as a block of text ready to inject into the prompt.
 *
 * <p>Build one with {@code dev.memfas.core.Memfas.newBuilder()}. Implementations are thread-safe: many sessions may
 * call {@link #getContext(String, String)} at once while others remember and forget. Closing the curator closes its
 * store and telemetry.
 */
public interface ContextCurator extends AutoCloseable {

    /**
     * Curates the context for one turn with the curator's default budget, in the default namespace.
     *
     * @param query the user's latest message or the agent's current question; empty for the start of the session
     *     (its working memory, the pinned memories and the latest, {@link ContextRequest#query()})
     * @param sessionId the conversation; not blank
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the session id is blank, the query blank but not empty, or either malformed
     */
    default ContextResponse getContext(String query, String sessionId) {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(sessionId, "sessionId");
        return getContext(ContextRequest.builder(query).sessionId(sessionId).build());
    }

    /**
     * Curates the context for one turn.
     *
     * @throws NullPointerException if the request is null
     */
    ContextResponse getContext(ContextRequest request);

    /**
     * Adds a memory, or replaces the one with the same namespace and id; embeds it if the curator has an embedder.
     *
     * @return the memory as stored, with its id and times filled in
     * @throws IllegalArgumentException if the memory is malformed; the store is left unchanged
     * @throws MemfasException if embedding or storing fails; the store is left unchanged
     */
    Memory remember(Memory memory);

    /**
     * Adds or replaces a batch of memories in one atomic step, embedding them in batches. A memory that replaces a
     * stored one keeps the stored {@code createdAt} when it sets none, and its {@code updatedAt} is now; the stored
     * state is kept as a version ({@link Memories#history(String, String)}). A memory equal to the stored one but for
     * {@code updatedAt} is not written again: the stored one is returned, and no version is added.
     *
     * @return the memories as stored, in order
     * @throws IllegalArgumentException if a memory is malformed or an id appears twice; nothing is stored
     * @throws MemfasException if embedding or storing fails; nothing is stored
     */
    List<Memory> rememberAll(Collection<Memory> memories);

    /**
     * Remembers a memory in the layer the router picks for it, or in the one the request forces (see
     * {@link RememberRequest} for the rules). A persistent memory is stored as by {@link #remember(Memory)}, its scope
     * set to the project or to universal as its layer needs; a working memory is embedded and kept by the session
     * only, until its time to live ({@link Memory#expiresAt()}, else the curator's working-memory TTL) passes or the
     * session ends, the least recently used going first beyond the curator's limit.
     *
     * @return the memory as kept, its layer and the reason for it
     * @throws IllegalArgumentException if the memory is malformed, or the project layer is forced with no project
     * @throws MemfasException if embedding or storing fails; nothing is kept
     */
    Remembered remember(RememberRequest request);



















    /** Deletes a memory from the given namespace; returns whether it existed. */
    boolean forget(String namespace, String memoryId);






    /**
     * Ranks the memories of a namespace against a query, best first, the way a turn scores them but without a session,
     * triggers, neighbors or token budget, and without side effects: nothing is recorded as accessed and no telemetry
     * is written. A search returns what matches; a best match's neighbors are context that only a turn adds. Memories
     * no longer valid are left out unless the request includes them.
     *
     * @throws NullPointerException if the request is null
     */
    List<RecallHit> recall(RecallRequest request);



    /**
     * Reads one memory with its access statistics, without recording an access.
     *
     * @return the memory, or empty if the namespace has none with this id
     */
    Optional<StoredMemory> get(String namespace, String memoryId);





    /** A snapshot of the curator's state. */
    CuratorStats stats();

    /**
     * The same snapshot for one namespace only: its memories, loaded vectors, triggers, live sessions and turns, which
     * is all a tenant may see of the curator.
     */
    CuratorStats stats(String namespace);

    /** The memories beyond a turn: changing, superseding, restoring, listing and promoting them, and their history. */
    Memories memories();

    /** The namespaces' key-value state, and tools' results offered for saving in it. */
    State state();

    /** The keywords that bring memories into a turn whenever a query names them. */
    Triggers triggers();

    /** What runs beside the turns: maintenance, summaries, orientation, agent events, usage feedback and time. */
    Upkeep upkeep();

    /** Closes the store and telemetry. Further calls fail with {@link IllegalStateException}. */
    @Override
    void close();
}
