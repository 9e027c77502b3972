package dev.memfas;

import java.util.List;
import java.util.Objects;

/**
 * One state a memory has had, as {@link ContextCurator#history(String, String)} lists them: who wrote it (the memory's
 * {@link Memory#author()}), when ({@link Memory#updatedAt()}) and what changed from the state before.
 *
 * @param version 1 for the first state stored, counting up; the highest is the memory's current state
 * @param memory the memory as it was
 * @param changed the names of the components that differ from the state before (as {@link Memory}'s accessors name
 *     them, {@code updatedAt} left out), in declaration order; empty for version 1
 */
public record MemoryVersion(int version, Memory memory, List<String> changed) {
    /** Checks the version is positive and copies the list. */
    public MemoryVersion {
        if (version < 1) {
            throw new IllegalArgumentException("version must be positive: " + version);
        }
        Objects.requireNonNull(memory, "memory");
        changed = List.copyOf(changed);
    }
}
