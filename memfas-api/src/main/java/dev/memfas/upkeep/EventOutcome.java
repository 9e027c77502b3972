package dev.memfas.upkeep;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import java.util.List;
import java.util.Objects;

/**
 * What {@link Upkeep#reportEvent} did with an event.
 *
 * @param remembered the memory the event became (or the stored one it duplicates); {@code null} for events that are
 *     not remembered
 * @param similarErrors for an error, the most similar past errors, best first, each with what fixed it
 */
public record EventOutcome(Memory remembered, List<PastError> similarErrors) {

    /**
     * A past error like the one reported.
     *
     * @param error the stored error
     * @param fix what fixed it (its {@code fix} metadata); {@code null} when nobody said
     */
    public record PastError(Memory error, String fix) {
        /** Checks the error is present. */
        public PastError {
            Objects.requireNonNull(error, "error");
        }
    }

    /** Copies the list. */
    public EventOutcome {
        similarErrors = List.copyOf(similarErrors);
    }
}
