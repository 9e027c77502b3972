package dev.memfas.spi;

import dev.memfas.State;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A store that keeps namespaces' key-value state durably, beside the memories: an agent's values (a plan, a cursor)
 * and the curator's own (when a namespace was last oriented). Implemented by a {@link MemoryStore} that has a place for
 * them; checked by {@code dev.memfas.testkit.StateStoreContract}. Namespaces are walls; implementations are
 * thread-safe.
 */
public interface StateStore {
    /**
     * Saves a value under a key of one namespace's state (key-value data kept beside the memories: an agent's own, and
     * the curator's, such as when the namespace was last oriented), replacing any value there, dated now on the
     * store's clock.
     *
     * @throws IllegalArgumentException if the key is blank or longer than 512 chars
     */
    void saveState(String namespace, String key, String value);

    /**
     * Saves a value under a key of one namespace's state, dated {@code updatedAt} (the caller's clock: the curator's),
     * which stores keep to the second.
     *
     * @throws IllegalArgumentException if the key is blank or longer than 512 chars
     */
    void saveState(String namespace, String key, String value, Instant updatedAt);

    /** The value saved under a key of one namespace's state, if any. */
    Optional<String> loadState(String namespace, String key);

    /** Every key of one namespace's state, sorted, each with when it was saved, its size and, if asked, a preview. */
    List<State.Entry> listState(String namespace, boolean includePreview);

    /**
     * The keys and values of one namespace's state whose key matches a glob ({@code *} any run of characters,
     * {@code ?} one, {@code [abc]} one of a class; case-sensitive), sorted by key, at most {@code limit} of them.
     */
    Map<String, String> searchState(String namespace, String glob, int limit);

    /** Deletes one key of a namespace's state; returns whether it existed. */
    boolean deleteState(String namespace, String key);

    /**
     * Deletes every key of a namespace's state but those beginning with {@code exceptPrefix} (null: every key); returns
     * how many were deleted.
     */
    int clearState(String namespace, String exceptPrefix);

    /** Runs the checks {@link #saveState} promises for a key, for implementations to call first. */
    static void checkStateKey(String key) {
        Objects.requireNonNull(key, "key");
        if (key.isBlank() || key.length() > 512) {
            throw new IllegalArgumentException("state key must be 1 to 512 chars and not blank: '" + key + "'");
        }
    }
}
