package dev.memfas.core.telemetry;

import dev.memfas.ScoreBreakdown;
import dev.memfas.ScoringWeights;
import dev.memfas.core.text.Json;
import dev.memfas.telemetry.ExtractionTelemetry;
import dev.memfas.telemetry.SessionSummary;
import dev.memfas.telemetry.TurnTelemetry;
import dev.memfas.telemetry.UsageTelemetry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * Writes a {@link TurnTelemetry}, a {@link UsageTelemetry}, a {@link SessionSummary} or an {@link ExtractionTelemetry}
 * as one JSON line and reads it back. Field names are the log's public format; a usage line is the one whose
 * {@code event} is {@code usage}, a session's summary {@code session_summary}, a conversation's facts
 * {@code facts_extracted}.
 */
final class TelemetryCodec {
    static final String USAGE_EVENT = "usage";
    static final String SESSION_EVENT = "session_summary";
    static final String EXTRACTION_EVENT = "facts_extracted";

    static String toJson(ExtractionTelemetry e) {
        StringBuilder sb = new StringBuilder(256);
        sb.append('{');
        field(sb, "event");
        Json.appendString(sb, EXTRACTION_EVENT);
        sb.append(',');
        field(sb, "timestamp").append('"').append(e.timestamp()).append("\",");
        field(sb, "namespace");
        Json.appendString(sb, e.namespace());
        sb.append(',');
        field(sb, "source");
        Json.appendString(sb, e.source());
        sb.append(',');
        field(sb, "messages").append(e.messages()).append(',');
        field(sb, "facts").append(e.facts()).append(',');
        field(sb, "input_tokens").append(e.inputTokens()).append(',');
        field(sb, "output_tokens").append(e.outputTokens()).append(',');
        field(sb, "cost");
        Json.appendNumber(sb, e.cost());
        sb.append(',');
        field(sb, "latency_ms");
        Json.appendNumber(sb, e.latency().toNanos() / 1e6);
        sb.append(',');
        field(sb, "failed").append(e.failed());
        return sb.append('}').toString();
    }

    private static ExtractionTelemetry extraction(Map<String, Object> m) {
        if (!(m.get("failed") instanceof Boolean failed)) {
            throw new IllegalArgumentException("facts_extracted line lacks failed");
        }
        return new ExtractionTelemetry(Instant.parse(str(m, "timestamp")), str(m, "namespace"), str(m, "source"),
                (int) num(m, "messages"), (int) num(m, "facts"), (long) num(m, "input_tokens"),
                (long) num(m, "output_tokens"), num(m, "cost"),
                Duration.ofNanos(Math.round(num(m, "latency_ms") * 1e6)), failed);
    }

    static String toJson(SessionSummary s) {
        StringBuilder sb = new StringBuilder(320);
        sb.append('{');
        field(sb, "event");
        Json.appendString(sb, SESSION_EVENT);
        sb.append(',');
        field(sb, "session");
        Json.appendString(sb, s.sessionId());
        sb.append(',');
        field(sb, "namespace");
        Json.appendString(sb, s.namespace());
        sb.append(',');
        field(sb, "started").append('"').append(s.started()).append("\",");
        field(sb, "ended").append('"').append(s.ended()).append("\",");
        field(sb, "reason");
        Json.appendString(sb, s.reason().name().toLowerCase(java.util.Locale.ROOT));
        sb.append(',');
        field(sb, "turns").append(s.turns()).append(',');
        field(sb, "curated_tokens").append(s.curatedTokens()).append(',');
        field(sb, "baseline_tokens").append(s.baselineTokens()).append(',');
        field(sb, "tokens_saved").append(s.tokensSaved()).append(',');
        field(sb, "topics");
        stringArray(sb, s.topics());
        sb.append(',');
        field(sb, "topic_shifts").append(s.topicShifts()).append(',');
        field(sb, "memories_used").append(s.memoriesUsed()).append(',');
        field(sb, "most_used_memories").append('{');
        int i = 0;
        for (Map.Entry<String, Integer> e : s.mostUsedMemories().entrySet()) {
            if (i++ > 0) {
                sb.append(',');
            }
            Json.appendString(sb, e.getKey());
            sb.append(':').append(e.getValue());
        }
        sb.append("},");
        field(sb, "latency_avg_ms");
        Json.appendNumber(sb, s.latencyAverage().toNanos() / 1e6);
        sb.append(',');
        field(sb, "latency_p95_ms");
        Json.appendNumber(sb, s.latencyP95().toNanos() / 1e6);
        return sb.append('}').toString();
    }

    @SuppressWarnings("unchecked")
    private static SessionSummary session(Map<String, Object> m) {
        if (!(m.get("topics") instanceof List<?> topics) || !(m.get("most_used_memories") instanceof Map<?, ?> most)) {
            throw new IllegalArgumentException("session summary lacks topics or most_used_memories");
        }
        Map<String, Integer> used = new java.util.LinkedHashMap<>();
        ((Map<String, Object>) most).forEach((id, n) -> {
            if (!(n instanceof Double d)) {
                throw new IllegalArgumentException("session summary's use count of '" + id + "' is not a number");
            }
            used.put(id, (int) Math.round(d));
        });
        SessionSummary.EndReason reason;
        try {
            reason = SessionSummary.EndReason.valueOf(str(m, "reason").toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("session summary has an unknown reason: " + m.get("reason"), e);
        }
        return new SessionSummary(str(m, "session"), str(m, "namespace"), Instant.parse(str(m, "started")),
                Instant.parse(str(m, "ended")), reason, (int) num(m, "turns"), (long) num(m, "curated_tokens"),
                (long) num(m, "baseline_tokens"), (long) num(m, "tokens_saved"), (List<String>) topics,
                (int) num(m, "topic_shifts"), (int) num(m, "memories_used"), used,
                Duration.ofNanos(Math.round(num(m, "latency_avg_ms") * 1e6)),
                Duration.ofNanos(Math.round(num(m, "latency_p95_ms") * 1e6)));
    }

    private TelemetryCodec() {}

    static String toJson(UsageTelemetry u) {
        StringBuilder sb = new StringBuilder(160);
        sb.append('{');
        field(sb, "event");
        Json.appendString(sb, USAGE_EVENT);
        sb.append(',');
        field(sb, "timestamp").append('"').append(u.timestamp()).append('"').append(',');
        field(sb, "namespace");
        Json.appendString(sb, u.namespace());
        sb.append(',');
        field(sb, "session");
        Json.appendString(sb, u.sessionId());
        sb.append(',');
        field(sb, "memory_ids");
        stringArray(sb, u.memoryIds());
        sb.append(',');
        field(sb, "helpful").append(u.helpful());
        return sb.append('}').toString();
    }

    /**
     * Reads one line written by a {@code toJson}: a {@link TurnTelemetry}, a {@link UsageTelemetry}, a
     * {@link SessionSummary} or an {@link ExtractionTelemetry}.
     *
     * @throws IllegalArgumentException if the line is not JSON or lacks a required field
     */
    @SuppressWarnings("unchecked")
    static Object decode(String line) {
        Object parsed = Json.parse(line);
        if (!(parsed instanceof Map)) {
            throw new IllegalArgumentException("telemetry line is not a JSON object");
        }
        Map<String, Object> m = (Map<String, Object>) parsed;
        if (SESSION_EVENT.equals(m.get("event"))) {
            return session(m);
        }
        if (EXTRACTION_EVENT.equals(m.get("event"))) {
            return extraction(m);
        }
        if (USAGE_EVENT.equals(m.get("event"))) {
            if (!(m.get("memory_ids") instanceof List<?> ids) || !(m.get("helpful") instanceof Boolean helpful)) {
                throw new IllegalArgumentException("usage line lacks memory_ids or helpful");
            }
            return new UsageTelemetry(Instant.parse(str(m, "timestamp")), str(m, "namespace"), str(m, "session"),
                    (List<String>) ids, helpful);
        }
        return turn(m);
    }

    static String toJson(TurnTelemetry t) {
        StringBuilder sb = new StringBuilder(512);
        sb.append('{');
        field(sb, "timestamp").append('"').append(t.timestamp()).append('"');
        sb.append(',');
        field(sb, "session");
        if (t.sessionId() == null) {
            sb.append("null");
        } else {
            Json.appendString(sb, t.sessionId());
        }
        sb.append(',');
        field(sb, "turn").append(t.turn()).append(',');
        field(sb, "namespace");
        Json.appendString(sb, t.namespace());
        sb.append(',');
        if (t.query() != null) {
            field(sb, "query");
            Json.appendString(sb, t.query());
            sb.append(',');
        }
        if (t.task() != null) {
            field(sb, "task");
            Json.appendString(sb, t.task());
            sb.append(',');
        }
        field(sb, "query_tokens").append(t.queryTokens()).append(',');
        field(sb, "topic");
        Json.appendString(sb, t.topic());
        sb.append(',');
        field(sb, "topic_shift").append(t.topicShifted()).append(',');
        field(sb, "topic_confidence");
        Json.appendNumber(sb, t.topicConfidence());
        sb.append(',');
        if (t.baselineTokens().isPresent()) {
            field(sb, "baseline_tokens").append(t.baselineTokens().getAsInt()).append(',');
        }
        field(sb, "curated_tokens").append(t.curatedTokens()).append(',');
        field(sb, "budget").append(t.budget()).append(',');
        field(sb, "memories_scored").append(t.memoriesScored()).append(',');
        field(sb, "memories_included").append(t.memoriesIncluded()).append(',');
        field(sb, "memories_dropped").append(t.memoriesDropped()).append(',');
        field(sb, "triggers_matched");
        stringArray(sb, t.triggersMatched());
        sb.append(',');
        if (t.tokensSaved().isPresent()) {
            field(sb, "tokens_saved").append(t.tokensSaved().getAsInt()).append(',');
        }
        if (t.compressionRatio().isPresent()) {
            field(sb, "compression_ratio");
            Json.appendNumber(sb, t.compressionRatio().getAsDouble());
            sb.append(',');
        }
        field(sb, "latency_ms");
        Json.appendNumber(sb, t.latency().toNanos() / 1e6);
        sb.append(',');
        field(sb, "included");
        stringArray(sb, t.includedMemoryIds());
        sb.append(',');
        field(sb, "top_memories").append('[');
        for (int i = 0; i < t.topMemories().size(); i++) {
            TurnTelemetry.TopMemory m = t.topMemories().get(i);
            if (i > 0) {
                sb.append(',');
            }
            sb.append('{');
            field(sb, "id");
            Json.appendString(sb, m.memoryId());
            sb.append(',');
            field(sb, "score");
            Json.appendNumber(sb, m.score());
            sb.append(',');
            field(sb, "factors");
            factors(sb, m.factors());
            if (!m.source().isEmpty()) {
                sb.append(',');
                field(sb, "source");
                Json.appendString(sb, m.source());
            }
            if (!m.snippet().isEmpty()) {
                sb.append(',');
                field(sb, "snippet");
                Json.appendString(sb, m.snippet());
            }
            sb.append('}');
        }
        sb.append("],");
        field(sb, "weights");
        weights(sb, t.weights());
        return sb.append('}').toString();
    }

    private static StringBuilder field(StringBuilder sb, String name) {
        return sb.append('"').append(name).append("\":");
    }

    private static void stringArray(StringBuilder sb, List<String> values) {
        sb.append('[');
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            Json.appendString(sb, values.get(i));
        }
        sb.append(']');
    }

    private static void factors(StringBuilder sb, ScoreBreakdown f) {
        double[] v = {f.semantic(), f.lexical(), f.recency(), f.frequency(), f.topic(), f.scope(), f.priority(), f.hot(),
            f.neighbor()};
        numbers(sb, FACTOR_NAMES, v);
    }

    private static void weights(StringBuilder sb, ScoringWeights w) {
        double[] v = {w.semantic(), w.lexical(), w.recency(), w.frequency(), w.topic(), w.scope(), w.priority(), w.hot()};
        numbers(sb, WEIGHT_NAMES, v);
    }

    private static final String[] WEIGHT_NAMES =
            {"semantic", "lexical", "recency", "frequency", "topic", "scope", "priority", "hot"};
    /** The weighted factors, then {@code neighbor}, which has no weight. */
    private static final String[] FACTOR_NAMES =
            {"semantic", "lexical", "recency", "frequency", "topic", "scope", "priority", "hot", "neighbor"};

    private static void numbers(StringBuilder sb, String[] names, double[] v) {
        sb.append('{');
        for (int i = 0; i < v.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            field(sb, names[i]);
            Json.appendNumber(sb, v[i]);
        }
        sb.append('}');
    }

    /**
     * Reads one turn line written by {@link #toJson(TurnTelemetry)}.
     *
     * @throws IllegalArgumentException if the line is not JSON, is a usage line, or lacks a required field
     */
    public static TurnTelemetry fromJson(String line) {
        if (!(decode(line) instanceof TurnTelemetry t)) {
            throw new IllegalArgumentException("a usage or session line, not a turn");
        }
        return t;
    }

    @SuppressWarnings("unchecked")
    private static TurnTelemetry turn(Map<String, Object> m) {
        List<TurnTelemetry.TopMemory> top = new ArrayList<>();
        for (Object o : (List<Object>) m.getOrDefault("top_memories", List.of())) {
            Map<String, Object> tm = (Map<String, Object>) o;
            Map<String, Object> factors = (Map<String, Object>) tm.get("factors");
            double[] f = numbers(factors);
            // Lines written before the neighbor factor existed have none: it was 0 then.
            double neighbor = factors.get("neighbor") instanceof Double d ? d : 0;
            // Lines written before top memories named their source and snippet have neither.
            top.add(new TurnTelemetry.TopMemory((String) tm.get("id"), num(tm, "score"),
                    new ScoreBreakdown(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], neighbor),
                    tm.get("source") instanceof String source ? source : "",
                    tm.get("snippet") instanceof String snippet ? snippet : ""));
        }
        double[] w = numbers((Map<String, Object>) m.get("weights"));
        return new TurnTelemetry(
                Instant.parse(str(m, "timestamp")),
                (String) m.get("session"),
                (int) num(m, "turn"),
                str(m, "namespace"),
                (String) m.get("query"),
                (String) m.get("task"),
                (int) num(m, "query_tokens"),
                str(m, "topic"),
                Boolean.TRUE.equals(m.get("topic_shift")),
                // Lines written before turns had a topic confidence have none: read as 1, a topic taken as given.
                m.get("topic_confidence") instanceof Double c ? c : 1,
                optInt(m, "baseline_tokens"),
                (int) num(m, "curated_tokens"),
                (int) num(m, "budget"),
                (int) num(m, "memories_scored"),
                (int) num(m, "memories_included"),
                (int) num(m, "memories_dropped"),
                (List<String>) (List<?>) m.getOrDefault("triggers_matched", List.of()),
                optInt(m, "tokens_saved"),
                m.get("compression_ratio") instanceof Double d ? OptionalDouble.of(d) : OptionalDouble.empty(),
                Duration.ofNanos(Math.round(num(m, "latency_ms") * 1e6)),
                (List<String>) (List<?>) m.getOrDefault("included", List.of()),
                top,
                new ScoringWeights(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]));
    }

    private static double[] numbers(Map<String, Object> m) {
        if (m == null) {
            throw new IllegalArgumentException("telemetry line lacks factors or weights");
        }
        double[] v = new double[WEIGHT_NAMES.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = num(m, WEIGHT_NAMES[i]);
        }
        return v;
    }

    private static String str(Map<String, Object> m, String key) {
        if (!(m.get(key) instanceof String s)) {
            throw new IllegalArgumentException("telemetry line lacks string field '" + key + "'");
        }
        return s;
    }

    private static double num(Map<String, Object> m, String key) {
        if (!(m.get(key) instanceof Double d)) {
            throw new IllegalArgumentException("telemetry line lacks number field '" + key + "'");
        }
        return d;
    }

    private static OptionalInt optInt(Map<String, Object> m, String key) {
        return m.get(key) instanceof Double d ? OptionalInt.of((int) Math.round(d)) : OptionalInt.empty();
    }
}
