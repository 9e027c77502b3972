package dev.memfas;

import java.time.Instant;
import java.util.Objects;

/**
 * One key of a namespace's key-value state, as listed: when it was last saved, how long its value is, and the
 * value's first {@value #PREVIEW_CHARS} characters when a preview was asked for.
 *
 * @param key the key
 * @param updatedAt when the value was last saved, on the clock of whoever saved it (the curator's)
 * @param size the value's length in characters
 * @param preview the value's first {@value #PREVIEW_CHARS} characters; {@code null} when not asked for
 */
public record StateEntry(String key, Instant updatedAt, int size, String preview) {
    /** How many characters of a value a preview shows. */
    public static final int PREVIEW_CHARS = 100;

    /** Checks the key and time are present and the size is not negative. */
    public StateEntry {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(updatedAt, "updatedAt");
        if (size < 0) {
            throw new IllegalArgumentException("size must not be negative: " + size);
        }
    }

    /** An entry for a value, with its preview if asked for. */
    public static StateEntry of(String key, Instant updatedAt, String value, boolean withPreview) {
        return new StateEntry(key, updatedAt, value.length(),
                withPreview ? value.substring(0, Math.min(value.length(), PREVIEW_CHARS)) : null);
    }
}
