package dev.memfas;

import java.time.Instant;
import java.util.Objects;

/**
 * A memory as read from a store, with its access statistics.
 *
 * @param memory the memory, with id, createdAt and updatedAt set
 * @param accessCount how often the memory was included in a context or reported helpful
 * @param lastAccessedAt the latest access; {@code null} if never accessed
 */
public record StoredMemory(Memory memory, long accessCount, Instant lastAccessedAt) {
    /** Checks the memory is present and the count is not negative. */
    public StoredMemory {
        Objects.requireNonNull(memory, "memory");
        if (accessCount < 0) {
            throw new IllegalArgumentException("access count must not be negative: " + accessCount);
        }
    }
}
