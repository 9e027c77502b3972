package dev.memfas;

import dev.memfas.spi.StoredMemory;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The memories of a curator beyond a turn ({@link ContextCurator#memories()}): changing, superseding and restoring
 * them, their history, listing them, the memories that apply in a scope, the patterns among them, and the layers
 * (promotion, working memory).
 * Writes are atomic with respect to the curator's other writes. Thread-safe.
 */
public interface Memories {
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
    List<Version> history(String namespace, String memoryId);

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
     * Lists a namespace's memories that pass the filter, newest first ({@code createdAt}, then id), one page at a
     * time, without recording an access.
     *
     * @param offset how many matching memories to skip, not negative
     * @param limit the most to return, in [1, 1000]
     * @throws IllegalArgumentException if the offset or limit is out of range
     */
    List<Memory> list(String namespace, MemoryFilter filter, int offset, int limit);

    /**
     * Remembers a conversation: each message as a memory of kind {@value Conversation#TURN_KIND} (its author, its time,
     * the conversation's source), and the facts the curator's {@link dev.memfas.policy.FactExtractor} takes from them,
     * each a memory that names the turns it came from ({@link Conversation#FROM_TURNS_KEY}). Written in one batch under
     * the curator's duplicate and supersession policies: a fact a live stored memory already says is not stored again
     * ({@link Conversation.Fact#duplicateOf()}), and one that updates a stored memory supersedes it when the policy
     * applies ({@link Conversation.Fact#updates()}). When the extractor runs in the background, the turns are stored
     * and returned at once, and the facts are written when it answers ({@link Conversation.Remembered#factsPending()});
     * a dry run waits for them.
     *
     * @param dryRun whether to store nothing and return what would be stored, with the duplicates and updates found
     * @return the turns and facts, as stored or as they would be
     */
    Conversation.Remembered remember(Conversation conversation, boolean dryRun);

    /**
     * The patterns among a namespace's latest memories: groups of memories that say much the same thing and recur, in
     * at least two sources (sessions, files) or on two days when they name no source, at least three times (a fix
     * applied again, a convention restated, a habit). Found without a model call, by the memories' vectors (or, without
     * an embedder, by the words they share), among the newest {@value #PATTERN_SCAN} memories the filter lets through
     * that are in force now. Most frequent first. Meant for on-demand calls and the start of a session, not every turn.
     *
     * @param filter only memories this filter lets through; {@code null} for any
     * @param limit at most this many, 1 to 100
     * @throws IllegalArgumentException if the limit is out of range
     */
    List<Pattern> patterns(String namespace, MemoryFilter filter, int limit);

    /** The most memories {@link #patterns} reads, the newest. */
    int PATTERN_SCAN = 1_000;

    /**
     * A recurring pattern among memories ({@link #patterns}).
     *
     * @param label its phrases, as a topic is labelled ("flaky login test, clock")
     * @param count how many memories say it
     * @param sources in how many sources (or days, for memories without a source) they were written
     * @param latest its newest example
     * @param memoryIds all its memories, newest first
     */
    record Pattern(String label, int count, int sources, Memory latest, List<String> memoryIds) {
        /** Checks the components and copies the list. */
        public Pattern {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(latest, "latest");
            memoryIds = List.copyOf(memoryIds);
            if (count != memoryIds.size() || count < 1 || sources < 1 || sources > count) {
                throw new IllegalArgumentException("a pattern's count (" + count + ") must be the number of its"
                        + " memories (" + memoryIds.size() + ") and its sources (" + sources + ") in [1, count]");
            }
        }
    }

    /**
     * One state a memory has had, as {@link #history(String, String)} lists them: who wrote it (the memory's
     * {@link Memory#author()}), when ({@link Memory#updatedAt()}) and what changed from the state before.
     *
     * @param version 1 for the first state stored, counting up; the highest is the memory's current state
     * @param memory the memory as it was
     * @param changed the names of the components that differ from the state before (as {@link Memory}'s accessors name
     *     them, {@code updatedAt} left out), in declaration order; empty for version 1
     */
    record Version(int version, Memory memory, List<String> changed) {
        /** Checks the version is positive and copies the list. */
        public Version {
            if (version < 1) {
                throw new IllegalArgumentException("version must be positive: " + version);
            }
            Objects.requireNonNull(memory, "memory");
            changed = List.copyOf(changed);
        }
    }
}
