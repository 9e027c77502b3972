package dev.memfas.core.lifecycle;

import dev.memfas.Layer;
import dev.memfas.Memory;
import dev.memfas.RememberRequest;
import dev.memfas.Remembered;
import dev.memfas.Scope;
import dev.memfas.core.turn.CandidateSet;
import dev.memfas.core.turn.QueryVectors;
import dev.memfas.core.turn.SessionRegistry;
import dev.memfas.core.turn.SessionState;
import dev.memfas.core.turn.Turn;
import dev.memfas.core.turn.WorkingMemory;
import dev.memfas.core.vector.Vectors;
import dev.memfas.core.write.MemoryIds;
import dev.memfas.core.write.MemoryWriter;
import dev.memfas.core.write.Revisions;
import dev.memfas.spi.Embedder;
import dev.memfas.spi.Embeddings;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.StoredMemory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The three layers a turn draws on ({@link Layer}): routes a new memory to its layer ({@link LayerRouter}), keeps
 * working memories in their session ({@link WorkingMemory}), adds a session's working memories to its turns, and
 * promotes memories up a layer. The project and global layers are the store's memories, told apart by scope.
 *
 * <p>Thread-safe.
 */
public final class Layers {
    private final MemoryStore store;
    private final MemoryWriter writer;
    private final Revisions revisions;
    private final SessionRegistry sessions;
    /** The curator's embedder, or null. */
    private final Embedder embedder;
    private final Duration workingTtl;
    private final int workingLimit;
    private final Clock clock;

    public Layers(MemoryStore store, MemoryWriter writer, Revisions revisions, SessionRegistry sessions,
            Embedder embedder, Duration workingTtl, int workingLimit, Clock clock) {
        this.store = store;
        this.writer = writer;
        this.revisions = revisions;
        this.sessions = sessions;
        this.embedder = embedder;
        this.workingTtl = workingTtl;
        this.workingLimit = workingLimit;
        this.clock = clock;
    }

    /** Routes the memory and keeps it in its layer. */
    public Remembered remember(RememberRequest request) {
        LayerRouter.Route route = LayerRouter.route(request);
        Memory memory = request.memory().toBuilder().scope(route.scope()).build();
        Instant now = clock.instant();
        if (route.layer() != Layer.WORKING) {
            return new Remembered(writer.rememberAll(List.of(memory), now).get(0), route.layer(), route.reason());
        }
        Memory.Builder b = memory.toBuilder().recordedAt(now);
        if (memory.id() == null) {
            b.id(MemoryIds.random());
        }
        if (memory.createdAt() == null) {
            b.createdAt(now).updatedAt(now);
        }
        boolean defaultExpiry = memory.expiresAt() == null;
        if (defaultExpiry) {
            b.expiresAt(now.plus(workingTtl));
        }
        Memory working = b.build();
        if (working.isExpiredAt(now)) {
            throw new IllegalArgumentException("memory '" + working.id() + "' expired at " + working.expiresAt()
                    + ", before now (" + now + "): there is nothing to keep in working memory");
        }
        float[] vector = null;
        if (embedder != null) {
            float[] raw = Embeddings.embed(embedder, List.of(working.text()), "memory '" + working.id() + "'").get(0);
            vector = Vectors.normalizedCopy(raw, embedder.dimension());
        }
        SessionState session = sessions.acquire(request.sessionId(), working.namespace());
        session.working(workingLimit).put(new WorkingMemory.Entry(new StoredMemory(working, 0, null, 1), vector,
                defaultExpiry), now);
        return new Remembered(working, Layer.WORKING, route.reason());
    }

    /** Adds the session's live working memories to the turn's candidates; none for a turn without a session. */
    public void addCandidates(Turn turn, QueryVectors q, CandidateSet candidates) {
        WorkingMemory working = turn.hasSession() ? turn.session().workingOrNull() : null;
        if (working != null) {
            working.addCandidates(turn.searchText(), q.query(), turn.inForce(), candidates);
        }
    }

    /** The session's live working memories, most recently used first. */
    public List<Memory> workingMemory(String namespace, String sessionId) {
        SessionState session = sessions.find(namespace, sessionId);
        WorkingMemory working = session == null ? null : session.workingOrNull();
        return working == null ? List.of() : working.memories(clock.instant());
    }

    /** Drops a working memory from every session of the namespace; returns whether one held it. */
    public boolean forget(String namespace, String id) {
        boolean dropped = false;
        for (SessionState s : sessions.inNamespace(namespace)) {
            WorkingMemory working = s.workingOrNull();
            dropped |= working != null && working.remove(id) != null;
        }
        return dropped;
    }

    /** Moves a memory up a layer; see {@link dev.memfas.Memories#promote}. */
    public Memory promote(String namespace, String id, Layer layer) {
        if (layer == Layer.WORKING) {
            throw new IllegalArgumentException("promote moves a memory up, and working memory is the lowest layer: to"
                    + " keep memory '" + id + "' in a session, remember it with the working layer forced");
        }
        Instant now = clock.instant();
        for (SessionState s : sessions.inNamespace(namespace)) {
            WorkingMemory working = s.workingOrNull();
            WorkingMemory.Entry entry = working == null ? null : working.peek(id, now);
            if (entry != null) {
                Memory stored = writer.rememberAll(List.of(persistent(entry, layer)), now).get(0);
                working.remove(id);
                return stored;
            }
        }
        Memory current = store.get(namespace, id).map(StoredMemory::memory).orElseThrow(() ->
                new IllegalArgumentException("namespace '" + namespace + "' has no memory '" + id
                        + "', stored or in a session's working memory"));
        Layer from = Layer.of(current);
        if (from == layer) {
            return current;
        }
        if (from == Layer.GLOBAL) {
            throw new IllegalArgumentException("promote moves a memory up, and memory '" + id + "' is global already;"
                    + " to narrow it to one project, update its scope");
        }
        return revisions.update(namespace, id, b -> b.scope(globalScope(current.scope())), now);
    }

    /** The working memory as a stored one in {@code layer}: its default time to live dropped, its scope fitted. */
    private static Memory persistent(WorkingMemory.Entry entry, Layer layer) {
        Memory m = entry.memory();
        Memory.Builder b = m.toBuilder();
        if (entry.defaultExpiry()) {
            b.expiresAt(null);
        }
        if (layer == Layer.GLOBAL) {
            b.scope(globalScope(m.scope()));
        } else if (m.scope().type() != Scope.Type.PROJECT) {
            throw new IllegalArgumentException("working memory '" + m.id() + "' has no project scope, so it cannot go"
                    + " to the project layer: promote it to the global layer, or remember it again with a project");
        }
        return b.build();
    }

    /** A language scope is global already; any other becomes universal. */
    private static Scope globalScope(Scope scope) {
        return scope.type() == Scope.Type.LANGUAGE ? scope : Scope.universal();
    }
}
