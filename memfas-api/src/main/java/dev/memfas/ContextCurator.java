package dev.memfas;

import dev.memfas.policy.RetentionPolicy;
import dev.memfas.policy.SavePolicy;
import dev.memfas.policy.Summarizer;
import dev.memfas.spi.StoredMemory;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Curates an agent's context every turn: keeps memories, and for each query returns the best of them that fit a token
 * budget, as a block of text ready to inject into the prompt.
 *
 * <p>Build one with {@code dev.memfas.core.Memfas.newBuilder()}. Implementations are thread-safe: many sessions may call
 * {@link #getContext(String, String)} at once while others remember and forget. Closing the curator closes its store
 * and telemetry.
 */
public interface ContextCurator extends AutoCloseable {

    /**
     * Curates the context for one turn with the curator's default budget, in the default namespace.
     *
     * @param query the user's latest message or the agent's current question; not blank
     * @param sessionId the conversation; not blank
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if an argument is blank or malformed
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
     * state is kept as a version ({@link #history(String, String)}). A memory equal to the stored one but for
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

    /**
     * Moves a memory up a layer: a working memory of any session into the store (as a project memory, needing a project
     * scope, or as a global one), or a project memory to the global layer (its scope becomes universal; the state
     * before is kept as a version). Promoting a memory to the layer it is in returns it unchanged.
     *
     * @return the memory as now kept
     * @throws IllegalArgumentException if the namespace has no such memory, the move is down (global to project, or
     *     anything to working), or a working memory with no project scope is promoted to the project layer
     */
    Memory promote(String namespace, String memoryId, Layer layer);

    /**
     * The working memories one session of a namespace holds now, most recently used first. Sessions are per
     * namespace: the same id in another namespace is another session.
     *
     * @return the memories; empty if the session holds none or is not known
     */
    List<Memory> workingMemory(String namespace, String sessionId);

    /** {@link #workingMemory(String, String)} in the default namespace. */
    default List<Memory> workingMemory(String sessionId) {
        return workingMemory(Memory.DEFAULT_NAMESPACE, sessionId);
    }

    /**
     * Changes one memory: reads it, applies {@code change} to a builder holding it, and stores the result in its
     * place, with {@code updatedAt} now; the state before is kept as a version. Atomic with respect to this curator's
     * other writes.
     *
     * @param change edits the builder; it may not change the id or namespace
     * @return the memory as stored; the stored one unchanged if the change changed nothing
     * @throws IllegalArgumentException if the namespace has no memory with this id, the change moves it to another id
     *     or namespace, or the result is malformed; nothing is stored
     */
    Memory update(String namespace, String memoryId, UnaryOperator<Memory.Builder> change);

    /**
     * Replaces one memory by another: the replacement is stored with {@code oldId} added to its
     * {@link Memory#supersedes()}, and the old memory is kept, marked {@link Memory#supersededBy()} the replacement and
     * valid until the replacement became valid (its {@code validFrom}, else its {@code createdAt}, else now). From
     * then on turns and searches leave the old memory out unless they ask for superseded memories or for an earlier
     * moment. Both are written in one atomic step, and the old memory's state before is kept as a version.
     *
     * @param replacement the new memory, in the old one's namespace; its id is assigned when null
     * @return the replacement as stored
     * @throws IllegalArgumentException if the namespace has no memory {@code oldId}, it is already superseded, the
     *     replacement has the same id, or the replacement would become valid before the old memory did; nothing is
     *     stored
     */
    Memory supersede(String oldId, Memory replacement);

    /**
     * The states one memory has had, oldest first, the current one last: every write that changed it left the state
     * before as a version.
     *
     * @return the versions; empty if the namespace has no memory with this id
     */
    List<MemoryVersion> history(String namespace, String memoryId);

    /**
     * Maintains one namespace on the curator's clock: deletes expired memories, and archives the live memories whose
     * retention ({@link RetentionPolicy}) fell below the curator's threshold, pinned ones exempt. Archived memories are
     * kept, and used in no context or search until {@link #restore restored}; a purge deletes them instead, with those
     * archived before. A dry run changes nothing and reports what it would do. Never runs on its own: call it, or
     * schedule it on an executor of yours.
     */
    MaintenanceReport maintain(MaintenanceRequest request);

    /**
     * Consolidates old memories: the live memories of the namespace dated at least {@code olderThan} before now and
     * allowed by the filter (never pinned ones, nor summaries) are grouped by source and scope, in runs of at most 20
     * in date order, and each run of two or more becomes one summary memory (kind {@code summary}, written by the
     * curator's {@link Summarizer}, dated as the run's newest) whose {@link Memory#supersedes()} names the run. The
     * originals are archived and marked superseded by it: out of contexts and searches, kept, each restorable. A dry
     * run changes nothing and returns the summaries it would write.
     *
     * @throws MemfasException if the summarizer fails or returns a text over the cap; nothing is changed
     */
    SummaryReport summarize(SummarizeRequest request);

    /**
     * Brings an archived memory back into use, counting the restore as an access so the next maintenance does not
     * archive it again at once. The state before is kept as a version.
     *
     * @return the memory as stored
     * @throws IllegalArgumentException if the namespace has no memory with this id, or it is not archived
     */
    Memory restore(String namespace, String memoryId);

    /**
     * The memories that apply in a scope, for an agent that asks for its standing rules on demand rather than by
     * query: the scope's own memories and those of every broader scope (universal ones everywhere, a project's in its
     * tasks; a project's task scopes also apply in the project), never another project's or language's. Only memories
     * in force now. Ranked most specific first, then pinned, then most used and repeated, then newest. Reads the
     * namespace's memories of the kind: meant for on-demand calls, not every turn.
     *
     * @param kind only memories of this kind ({@code rule}, {@code preference}, ...); {@code null} for any
     * @param limit at most this many, 1 to 200
     * @throws IllegalArgumentException if the limit is out of range
     */
    List<StoredMemory> memoryContext(String namespace, Scope scope, String kind, int limit);

    /**
     * Saves a JSON value under a key of a namespace's state, replacing any value there, dated on the curator's clock:
     * what an agent carries between turns beside its memories (a plan, a cursor, settings).
     *
     * @throws IllegalArgumentException if the key is blank, over 512 chars or begins with {@code memfas.} (the
     *     curator's own keys), or the value is not one JSON value or is over 1,000,000 chars; nothing is saved
     */
    void saveState(String namespace, String key, String json);

    /** The JSON value saved under a key of a namespace's state, if any. */
    Optional<String> loadState(String namespace, String key);

    /** The keys of a namespace's state, sorted, each with when it was saved, its size and, if asked, a preview. */
    List<StateEntry> listStateKeys(String namespace, boolean includePreview);

    /**
     * The keys and values of a namespace's state whose key matches a glob ({@code session/*}), sorted by key.
     *
     * @param limit at most this many, 1 to 1,000
     */
    Map<String, String> searchState(String namespace, String glob, int limit);

    /** Deletes one key of a namespace's state; returns whether it existed. */
    boolean deleteState(String namespace, String key);

    /** Deletes every key of a namespace's state; returns how many. */
    int clearState(String namespace);

    /**
     * Offers what a tool returned for saving as state: the curator's {@link SavePolicy} (or, when it has none or the
     * policy fails, its rules) decides whether and under which key; what is kept is saved as a JSON object with the
     * tool, the goal, the reason and the result. An existing key is never overwritten: a different value goes under the
     * key's next free version ({@code tool/profile.v2}). Never called by the curator itself.
     *
     * @param goal what the agent was doing; may be null
     * @throws IllegalArgumentException if the tool name is blank or over 200 chars
     */
    SaveOutcome offer(String namespace, String toolName, String result, String goal);

    /** Deletes a memory from the default namespace; returns whether it existed. */
    default boolean forget(String memoryId) {
        return forget(Memory.DEFAULT_NAMESPACE, memoryId);
    }

    /** Deletes a memory from the given namespace; returns whether it existed. */
    boolean forget(String namespace, String memoryId);

    /** Adds a trigger (in its namespace), replacing one with the same keyword. */
    void addTrigger(Trigger trigger);

    /** Removes a trigger from the given namespace; returns whether it existed. */
    boolean removeTrigger(String namespace, String keyword);

    /**
     * Suggests triggers learned from feedback: words found in the queries of at least three turns whose included
     * memories were reported helpful ({@link #reportUsage}), with the memories reported with them most often, the most
     * frequent word first; words that are triggers already are left out. Nothing is added: add a suggestion with
     * {@code addTrigger(suggestion.toTrigger(namespace))}. Learned only where the curator keeps query text (not with
     * {@code redactQueries}).
     *
     * @return at most 20 suggestions; empty before enough feedback
     */
    List<TriggerSuggestion> suggestTriggers(String namespace);

    /**
     * Tells the curator whether memories it included in a session's context helped, in the default namespace; see
     * {@link #reportUsage(String, String, Collection, boolean)}.
     */
    default UsageReport reportUsage(String sessionId, Collection<String> memoryIds, boolean helpful) {
        return reportUsage(Memory.DEFAULT_NAMESPACE, sessionId, memoryIds, helpful);
    }

    /**
     * Tells the curator whether memories it included in a session's context helped. Helpful memories of the namespace
     * have their access count raised; unhelpful ones lose their "hot" standing in the session. Nothing is written
     * outside the namespace: ids that name no memory of it are returned as unknown, and a session that lives in
     * another namespace is refused.
     *
     * @return which ids were recorded and which named nothing
     * @throws IllegalArgumentException if the namespace or session id is blank or malformed, or the session is in
     *     progress in another namespace
     */
    UsageReport reportUsage(String namespace, String sessionId, Collection<String> memoryIds, boolean helpful);

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
     * {@link #recall(RecallRequest)} of the memories valid now.
     *
     * @param limit the most hits to return, in [1, 1000]
     * @throws IllegalArgumentException if the query is blank or too long, the namespace is invalid, or the limit is out
     *     of range
     */
    default List<RecallHit> recall(String query, String namespace, int limit) {
        return recall(RecallRequest.builder(query).namespace(namespace).limit(limit).build());
    }

    /** {@link #recall(String, String, int)} in the default namespace. */
    default List<RecallHit> recall(String query, int limit) {
        return recall(query, Memory.DEFAULT_NAMESPACE, limit);
    }

    /**
     * Reads one memory with its access statistics, without recording an access.
     *
     * @return the memory, or empty if the namespace has none with this id
     */
    Optional<StoredMemory> get(String namespace, String memoryId);

    /**
     * Lists a namespace's memories that pass the filter, newest first ({@code createdAt}, then id), one page at a
     * time, without recording an access.
     *
     * @param offset how many matching memories to skip, not negative
     * @param limit the most to return, in [1, 1000]
     * @throws IllegalArgumentException if the offset or limit is out of range
     */
    List<Memory> list(String namespace, MemoryFilter filter, int offset, int limit);

    /** Time on the curator's clock: now in a zone, what "last week" means, durations in words. */
    TimeService time();

    /**
     * Reports something that happened in the agent's work: an error, a decision or user feedback becomes a memory of
     * kind {@code error}, {@code decision} or {@code feedback} (source {@code event}; a repeat of a stored one adds
     * evidence instead); an error first looks up the most similar past errors with what fixed them, and a {@code fix}
     * detail is kept on the stored error; the end of a session drops its state; other events are not remembered.
     */
    EventOutcome reportEvent(AgentEvent event);

    /**
     * Orients an agent coming back to a namespace: the time now in the zone, when the namespace was last oriented and
     * how long ago, and the live memories stored since (all of them the first time). Records now as the last time
     * seen, in the namespace's state.
     */
    Orientation orient(String namespace, java.time.ZoneId zone);

    /** A snapshot of the curator's state. */
    CuratorStats stats();

    /**
     * The same snapshot for one namespace only: its memories, loaded vectors, triggers, live sessions and turns, which
     * is all a tenant may see of the curator.
     */
    CuratorStats stats(String namespace);

    /** Closes the store and telemetry. Further calls fail with {@link IllegalStateException}. */
    @Override
    void close();
}
