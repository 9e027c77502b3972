package dev.memfas;

import dev.memfas.policy.SavePolicy;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A namespace's key-value state ({@link ContextCurator#state()}): JSON values an agent carries between turns beside
 * its memories (a plan, a cursor, settings), and the results of tools offered for saving there. Thread-safe.
 */
public interface State {
    /**
     * Saves a JSON value under a key of a namespace's state, replacing any value there, dated on the curator's clock:
     * what an agent carries between turns beside its memories (a plan, a cursor, settings).
     *
     * @throws IllegalArgumentException if the key is blank, over 512 chars or begins with {@code memfas.} (the
     *     curator's own keys), or the value is not one JSON value or is over 1,000,000 chars; nothing is saved
     */
    void save(String namespace, String key, String json);

    /** The JSON value saved under a key of a namespace's state, if any. */
    Optional<String> load(String namespace, String key);

    /** The keys of a namespace's state, sorted, each with when it was saved, its size and, if asked, a preview. */
    List<Entry> keys(String namespace, boolean includePreview);

    /**
     * The keys and values of a namespace's state whose key matches a glob ({@code session/*}), sorted by key.
     *
     * @param limit at most this many, 1 to 1,000
     */
    Map<String, String> search(String namespace, String glob, int limit);

    /** Deletes one key of a namespace's state; returns whether it existed. */
    boolean delete(String namespace, String key);

    /** Deletes every key of a namespace's state; returns how many. */
    int clear(String namespace);

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

    /**
     * One key of a namespace's key-value state, as listed: when it was last saved, how long its value is, and the
     * value's first {@value #PREVIEW_CHARS} characters when a preview was asked for.
     *
     * @param key the key
     * @param updatedAt when the value was last saved, on the clock of whoever saved it (the curator's)
     * @param size the value's length in characters
     * @param preview the value's first {@value #PREVIEW_CHARS} characters; {@code null} when not asked for
     */
    record Entry(String key, Instant updatedAt, int size, String preview) {
        /** How many characters of a value a preview shows. */
        public static final int PREVIEW_CHARS = 100;

        /** Checks the key and time are present and the size is not negative. */
        public Entry {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(updatedAt, "updatedAt");
            if (size < 0) {
                throw new IllegalArgumentException("size must not be negative: " + size);
            }
        }

        /** An entry for a value, with its preview if asked for. */
        public static Entry of(String key, Instant updatedAt, String value, boolean withPreview) {
            return new Entry(key, updatedAt, value.length(),
                    withPreview ? value.substring(0, Math.min(value.length(), PREVIEW_CHARS)) : null);
        }
    }

    /**
     * What became of a tool's result offered for saving ({@link #offer}).
     *
     * @param saved whether it was saved
     * @param key the state key it was saved under (a new version of the key the policy chose, if that key held another
     *     value); {@code null} when not saved
     * @param reason why, as the policy or the rules said
     * @param decidedBy {@code "policy"} when the curator's {@link SavePolicy} decided, {@code "rules"} when its rules
     * did
     */
    record SaveOutcome(boolean saved, String key, String reason, String decidedBy) {
        /** Checks the parts are present. */
        public SaveOutcome {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(decidedBy, "decidedBy");
        }
    }
}
