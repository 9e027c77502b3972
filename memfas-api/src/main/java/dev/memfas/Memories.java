package dev.memfas;

import dev.memfas.spi.StoredMemory;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The memories of a curator beyond a turn ({@link ContextCurator#memories()}): changing, superseding and restoring
 * them, their history, listing them, the memories that apply in a scope, and the layers (promotion, working memory).
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
