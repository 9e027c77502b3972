package dev.memfas.spi;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A {@link MemoryStore} that several processes may write at once, which numbers every committed change so that a
 * reader can catch up with writes made elsewhere. A curator over such a store checks {@link #lastChange()} before each
 * turn (one cheap read) and, when it moved, applies the changes to its in-memory indexes: every read sees every
 * committed write, whichever process made it.
 *
 * <p>Changes are numbered in commit order, without gaps a reader could miss. A store keeps a bounded window of them;
 * a reader that fell further behind gets {@link Changes#complete()} false and rebuilds from the store.
 */
public interface SharedStore {
    /** The number of the latest committed change; 0 before any. Called before every turn, so it must be cheap. */
    long lastChange();

    /**
     * The changes committed after change {@code after} by others than this store object, oldest first, reading at
     * most {@code limit} changes. What was written through this object is left out (its curator applied it as it
     * wrote it), so each curator needs a store object of its own.
     *
     * @param limit the most changes to read, positive
     * @return the changes, the number of the last change read, and whether none between {@code after} and it is
     *     missing (false if the store no longer keeps some of them)
     * @throws IllegalArgumentException if {@code after} is negative or the limit is not positive
     */
    Changes changesSince(long after, int limit);

    /**
     * Asks to be told when other processes may have committed changes, so that an idle reader can catch up before its
     * next turn needs to (a turn still checks {@link #lastChange()} first: a write acknowledged elsewhere is seen even
     * if the news of it is late). The listener runs on a thread of the store's and should return soon; several
     * commits may be told at once. The default never calls it, for stores that cannot tell.
     *
     * @return a handle whose {@code close()} stops the calls
     */
    default AutoCloseable onChanges(Runnable listener) {
        java.util.Objects.requireNonNull(listener, "listener");
        return () -> { };
    }

    /** The stored vectors of the given memories of one namespace; memories without one are absent. */
    Map<String, float[]> vectors(String namespace, Collection<String> ids);

    /** What one change touched. */
    enum Kind {
        /** One memory was written or deleted: {@link Change#memoryId()} names it. */
        MEMORY,
        /** The namespace's triggers changed. */
        TRIGGERS,
        /** Every memory of the namespace may have changed (re-embedding, a restore): rebuild from the store. */
        NAMESPACE
    }

    /**
     * One committed change.
     *
     * @param sequence its number
     * @param namespace the namespace it changed
     * @param kind what it touched
     * @param memoryId the memory, for {@link Kind#MEMORY}; null otherwise
     */
    record Change(long sequence, String namespace, Kind kind, String memoryId) {
        /** Checks that exactly memory changes name a memory. */
        public Change {
            Objects.requireNonNull(namespace, "namespace");
            Objects.requireNonNull(kind, "kind");
            if ((kind == Kind.MEMORY) != (memoryId != null)) {
                throw new IllegalArgumentException("memoryId must be set exactly for MEMORY changes: " + kind + ", "
                        + memoryId);
            }
        }
    }

    /**
     * A run of changes.
     *
     * @param changes made elsewhere, oldest first
     * @param upTo the number of the last change read (made here or elsewhere); the next call asks after it
     * @param exhausted whether this run reached the store's last change (false if the limit cut it short)
     * @param complete whether no change between the one asked after and {@code upTo} is missing
     */
    record Changes(List<Change> changes, long upTo, boolean exhausted, boolean complete) {
        /** Copies the list. */
        public Changes {
            changes = List.copyOf(changes);
        }
    }
}
