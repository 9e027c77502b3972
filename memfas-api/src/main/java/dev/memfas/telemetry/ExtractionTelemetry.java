package dev.memfas.telemetry;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One conversation's facts taken ({@link dev.memfas.Memories#remember(dev.memfas.Conversation, boolean)}, not a dry
 * run): one line of the telemetry log, and the event a {@link TelemetryListener} receives. Its tokens and cost add up
 * to what a model-backed extractor spends.
 *
 * @param timestamp when the extraction ended, by the curator's clock
 * @param namespace the conversation's namespace
 * @param source the conversation's source
 * @param messages how many messages it had
 * @param facts how many facts were taken (stored or found already stored); 0 when it failed
 * @param inputTokens tokens the extractor's model read
 * @param outputTokens tokens it wrote
 * @param cost their price, in the unit the extractor was given prices in
 * @param latency how long the extraction took
 * @param failed whether the extractor threw, gave an unusable answer or was late (the turns are stored all the same)
 */
public record ExtractionTelemetry(Instant timestamp, String namespace, String source, int messages, int facts,
        long inputTokens, long outputTokens, double cost, Duration latency, boolean failed) {

    /** Checks the required components are present. */
    public ExtractionTelemetry {
        Objects.requireNonNull(timestamp, "timestamp");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(latency, "latency");
    }
}
