package dev.memfas.spi;

import dev.memfas.Memory;
import java.time.Instant;
import java.util.Objects;

/**
 * A memory as read from a store, with its access statistics.
 *
 * @param memory the memory, with id, createdAt and updatedAt set
 * @param accessCount how often the memory was included in a context or reported helpful
 * @param lastAccessedAt the latest access; {@code null} if never accessed
 * @param evidenceCount how often the memory was remembered: 1, and one more for each duplicate that was not stored
 *     because this memory already said it
 */
public record StoredMemory(Memory memory, long accessCount, Instant lastAccessedAt, long evidenceCount) {
    /** Checks the memory is present, the access count not negative and the evidence count positive. */
    public StoredMemory {
        Objects.requireNonNull(memory, "memory");
        if (accessCount < 0) {
            throw new IllegalArgumentException("access count must not be negative: " + accessCount);
        }
        if (evidenceCount < 1) {
            throw new IllegalArgumentException("evidence count must be positive: " + evidenceCount);
        }
    }
}
