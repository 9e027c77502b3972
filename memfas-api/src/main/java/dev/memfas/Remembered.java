package dev.memfas;

import java.util.Objects;

/**
 * What {@link ContextCurator#remember(RememberRequest)} did with a memory.
 *
 * @param memory the memory as kept, with its id and times filled in, and its scope as the layer needs it
 * @param layer the layer it went to
 * @param reason why the router chose that layer, e.g. {@code "tag temp"} or {@code "kind decision"}
 */
public record Remembered(Memory memory, Layer layer, String reason) {
    /** Checks the components are present. */
    public Remembered {
        Objects.requireNonNull(memory, "memory");
        Objects.requireNonNull(layer, "layer");
        Objects.requireNonNull(reason, "reason");
    }
}
