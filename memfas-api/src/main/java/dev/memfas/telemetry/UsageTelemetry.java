package dev.memfas.telemetry;

import dev.memfas.ContextCurator;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What a caller said of the memories a session's context included ({@link dev.memfas.upkeep.Upkeep#reportUsage}): one
 * line of the telemetry log, and the event a {@link TelemetryListener} receives. The share of included memories
 * reported helpful is how well curation serves the caller.
 *
 * @param timestamp when it was reported, by the curator's clock
 * @param namespace the namespace
 * @param sessionId the session
 * @param memoryIds the memories reported that the curator knows, in the order given
 * @param helpful whether they were reported helpful
 */
public record UsageTelemetry(Instant timestamp, String namespace, String sessionId, List<String> memoryIds,
        boolean helpful) {

    /** Copies the list and checks the required components are present. */
    public UsageTelemetry {
        Objects.requireNonNull(timestamp, "timestamp");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(sessionId, "sessionId");
        memoryIds = List.copyOf(memoryIds);
    }
}
