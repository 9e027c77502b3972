package dev.memfas.telemetry;

import dev.memfas.ScoreBreakdown;
import dev.memfas.ScoringWeights;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * What happened in one {@code getContext} turn: one line of the telemetry log, and the event a
 * {@link TelemetryListener} receives.
 *
 * @param timestamp when the turn started, by the curator's clock
 * @param sessionId the session, or {@code null} for a stateless turn
 * @param turn the turn's number within its session, from 1 (0 for a stateless turn)
 * @param namespace the namespace read
 * @param query the query, or {@code null} when queries are redacted
 * @param task the caller's task ({@link dev.memfas.ContextRequest#task()}), or {@code null} when none was given or
 *     queries are redacted
 * @param queryTokens tokens in the query
 * @param topic the session's topic label after this turn
 * @param topicShifted whether this turn shifted the topic
 * @param topicConfidence how well the turn agrees with its topic, 0 to 1 ({@link dev.memfas.ContextResponse})
 * @param baselineTokens the caller's full-history size, when given
 * @param curatedTokens tokens in the returned context
 * @param budget the turn's token budget
 * @param memoriesScored candidates scored
 * @param memoriesIncluded memories included
 * @param memoriesDropped candidates left out
 * @param triggersMatched keywords of the triggers that fired
 * @param tokensSaved {@code baselineTokens - curatedTokens}, when a baseline is given
 * @param compressionRatio {@code curatedTokens / baselineTokens}, when a positive baseline is given
 * @param latency how long the turn took
 * @param includedMemoryIds every included memory, in context order
 * @param topMemories the best included memories (at most five) with their scores and factor breakdowns
 * @param weights the scoring weights in force
 */
public record TurnTelemetry(
        Instant timestamp,
        String sessionId,
        int turn,
        String namespace,
        String query,
        String task,
        int queryTokens,
        String topic,
        boolean topicShifted,
        double topicConfidence,
        OptionalInt baselineTokens,
        int curatedTokens,
        int budget,
        int memoriesScored,
        int memoriesIncluded,
        int memoriesDropped,
        List<String> triggersMatched,
        OptionalInt tokensSaved,
        OptionalDouble compressionRatio,
        Duration latency,
        List<String> includedMemoryIds,
        List<TopMemory> topMemories,
        ScoringWeights weights) {

    /** Copies the lists and checks the required components are present. */
    public TurnTelemetry {
        Objects.requireNonNull(timestamp, "timestamp");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(baselineTokens, "baselineTokens");
        triggersMatched = List.copyOf(triggersMatched);
        Objects.requireNonNull(tokensSaved, "tokensSaved");
        Objects.requireNonNull(compressionRatio, "compressionRatio");
        Objects.requireNonNull(latency, "latency");
        includedMemoryIds = List.copyOf(includedMemoryIds);
        topMemories = List.copyOf(topMemories);
        Objects.requireNonNull(weights, "weights");
    }

    /**
     * One of the best memories of a turn.
     *
     * @param memoryId the memory
     * @param score its weighted score
     * @param factors its factor breakdown
     * @param source where the memory came from ({@link dev.memfas.Memory#source()}); empty if it names none
     * @param snippet the start of its text as the context showed it, at most {@value #SNIPPET_CHARS} chars; empty when
     *     queries are redacted (a memory's text is as private as a query)
     */
    public record TopMemory(String memoryId, double score, ScoreBreakdown factors, String source, String snippet) {
        /** The longest snippet kept. */
        public static final int SNIPPET_CHARS = 120;

        /** Checks the components are present and cuts the snippet to {@value #SNIPPET_CHARS} chars. */
        public TopMemory {
            Objects.requireNonNull(memoryId, "memoryId");
            Objects.requireNonNull(factors, "factors");
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(snippet, "snippet");
            if (snippet.length() > SNIPPET_CHARS) {
                int end = Character.isHighSurrogate(snippet.charAt(SNIPPET_CHARS - 2)) ? SNIPPET_CHARS - 2
                        : SNIPPET_CHARS - 1;
                snippet = snippet.substring(0, end) + "\u2026";
            }
        }
    }
}
