package dev.memfas.upkeep;

import dev.memfas.ContextCurator;
import java.util.List;

/**
 * What {@link Upkeep#reportUsage(String, String, java.util.Collection, boolean)} did with the ids it was given.
 *
 * @param recorded the ids of memories that exist in the namespace, in the order given, each once
 * @param unknown the ids that name no memory of the namespace, in the order given, each once; nothing was recorded
 *     for them
 */
public record UsageReport(List<String> recorded, List<String> unknown) {
    /** Copies the lists. */
    public UsageReport {
        recorded = List.copyOf(recorded);
        unknown = List.copyOf(unknown);
    }
}
