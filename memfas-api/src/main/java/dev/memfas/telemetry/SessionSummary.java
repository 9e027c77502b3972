package dev.memfas.telemetry;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A session as it ended: one line of the telemetry log ({@code "event":"session_summary"}) and what
 * {@link TelemetryListener#onSessionEnd} receives. Written for a session that had at least one turn.
 *
 * @param sessionId the session
 * @param namespace its namespace
 * @param started its first turn, by the curator's clock
 * @param ended its last turn
 * @param reason why it ended
 * @param turns how many turns it had
 * @param curatedTokens tokens of context returned, over its turns
 * @param baselineTokens the caller's full-history tokens, over the turns that gave a baseline
 * @param tokensSaved baseline minus curated tokens, over the turns that gave a baseline
 * @param topics the labels of the topics it visited, oldest first (each as last labelled), at most the latest
 *     {@value #MAX_TOPICS}
 * @param topicShifts how many times its topic shifted
 * @param memoriesUsed how many distinct memories its contexts included (counted up to
 *     {@value #MAX_MEMORIES_COUNTED})
 * @param mostUsedMemories inclusion counts of its most included memories (at most five), most used first
 * @param latencyAverage its turns' mean latency
 * @param latencyP95 its turns' 95th percentile latency (nearest rank), over its latest
 *     {@value #LATENCIES_KEPT} turns
 */
public record SessionSummary(
        String sessionId,
        String namespace,
        Instant started,
        Instant ended,
        EndReason reason,
        int turns,
        long curatedTokens,
        long baselineTokens,
        long tokensSaved,
        List<String> topics,
        int topicShifts,
        int memoriesUsed,
        Map<String, Integer> mostUsedMemories,
        Duration latencyAverage,
        Duration latencyP95) {

    /** The most topic labels a summary lists. */
    public static final int MAX_TOPICS = 10;
    /** The most distinct memories a session counts. */
    public static final int MAX_MEMORIES_COUNTED = 10_000;
    /** The latencies the percentile is taken over. */
    public static final int LATENCIES_KEPT = 4_096;

    /** Why a session ended. */
    public enum EndReason {
        /** The caller ended it (an agent event of type {@code SESSION_END}). */
        ENDED,
        /** It was idle longer than the curator's session timeout. */
        TIMED_OUT,
        /** It was the least recently used past the curator's most sessions. */
        EVICTED,
        /** The curator closed. */
        CLOSED
    }

    /** Copies the collections (keeping the map's order) and checks the components are present. */
    public SessionSummary {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(started, "started");
        Objects.requireNonNull(ended, "ended");
        Objects.requireNonNull(reason, "reason");
        topics = List.copyOf(topics);
        mostUsedMemories = Collections.unmodifiableMap(new LinkedHashMap<>(mostUsedMemories));
        Objects.requireNonNull(latencyAverage, "latencyAverage");
        Objects.requireNonNull(latencyP95, "latencyP95");
    }
}
