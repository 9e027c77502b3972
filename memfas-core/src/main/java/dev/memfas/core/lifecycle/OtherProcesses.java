package dev.memfas.core.lifecycle;

import dev.memfas.core.turn.AuthorNames;
import dev.memfas.core.turn.NamespaceTriggers;
import dev.memfas.core.turn.PinnedMemories;
import dev.memfas.core.vector.NamespaceIndexes;
import dev.memfas.core.write.MemoryWriter;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.SharedStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What other processes commit to a shared store, brought into this curator's indexes, pins and triggers: before each
 * turn (one cheap read when nothing changed), and, for a store that tells ({@link SharedStore#onChanges}), as soon as
 * they commit, so that an idle curator's next turn finds nothing to apply. Does nothing for a store that is not
 * shared. Thread-safe: changes are applied under the writer's lock, in order with this curator's own writes.
 */
public final class OtherProcesses implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OtherProcesses.class);

    private final ChangeFollower follower;
    private final MemoryStore store;
    private final MemoryWriter writer;
    private final NamespaceIndexes indexes;
    private final NamespaceTriggers triggers;
    private final PinnedMemories pinned;
    private final AuthorNames authors;
    /** The store's calls when others commit; null until {@link #listen()}, and for a store that is not shared. */
    private volatile AutoCloseable wakeUps;
    private volatile boolean closed;

    /** @param follower the store's change log, followed from before anything was loaded; null for a store not shared */
    public OtherProcesses(ChangeFollower follower, MemoryStore store, MemoryWriter writer, NamespaceIndexes indexes,
            NamespaceTriggers triggers, PinnedMemories pinned, AuthorNames authors) {
        this.follower = follower;
        this.store = store;
        this.writer = writer;
        this.indexes = indexes;
        this.triggers = triggers;
        this.pinned = pinned;
        this.authors = authors;
    }

    /** A follower of the store's change log from its last change, or null: to create before anything is loaded. */
    public static ChangeFollower follow(MemoryStore store) {
        return store instanceof SharedStore shared ? new ChangeFollower(shared) : null;
    }

    /** Starts applying others' commits as the store tells of them, once the curator is built. */
    public void listen() {
        if (follower != null && store instanceof SharedStore shared) {
            wakeUps = shared.onChanges(this::catchUpInBackground);
        }
    }

    /** Applies what other processes committed since the last call (see {@link ChangeFollower}). */
    public void catchUp() {
        if (follower != null && follower.behind()) {
            writer.exclusively(() -> follower.catchUp(store, indexes, triggers, pinned, authors));
        }
    }

    /** {@link #catchUp()} on the store's notification thread: a failure is the next turn's to report. */
    private void catchUpInBackground() {
        if (closed) {
            return;
        }
        try {
            catchUp();
        } catch (RuntimeException e) {
            LOG.debug("catching up with other processes in the background failed; the next turn tries again: {}",
                    e.toString());
        }
    }

    /** Stops listening; the store itself is the curator's to close. */
    @Override
    public void close() {
        closed = true;
        AutoCloseable w = wakeUps;
        if (w != null) {
            try {
                w.close();
            } catch (Exception e) {
                LOG.debug("cannot stop listening for other processes' changes: {}", e.toString());
            }
        }
    }
}
