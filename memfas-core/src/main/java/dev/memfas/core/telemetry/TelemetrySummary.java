package dev.memfas.core.telemetry;

import dev.memfas.telemetry.TurnTelemetry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Totals over a set of turns: how many, how many tokens, how much was saved (in all, and at the best and worst turn),
 * how many memories were scored, included and left out, how fast, on what topics, with which memories.
 *
 * <p>Percentiles use the nearest-rank method: the p-th percentile of n sorted values is the value at rank
 * {@code ceil(p / 100 * n)}. Immutable.
 *
 * @param turns how many turns
 * @param sessions how many distinct sessions (stateless turns not counted)
 * @param curatedTokens tokens of context returned, over all turns
 * @param baselineTokens the callers' full-history tokens, over the turns that gave a baseline
 * @param tokensSaved baseline minus curated tokens, over the turns that gave a baseline
 * @param compressionRatio curated over baseline tokens, over the turns that gave a positive baseline; empty if none
 * @param bestCompression the lowest one turn's curated over baseline tokens reached; empty if no turn gave a positive
 *     baseline
 * @param worstCompression the highest; empty if no turn gave a positive baseline
 * @param memoriesScored candidates scored, over all turns
 * @param memoriesIncluded memories included, over all turns
 * @param memoriesDropped candidates left out, over all turns
 * @param latencyAverage the mean latency
 * @param latencyP50 median latency
 * @param latencyP95 95th percentile latency
 * @param latencyMax the slowest turn
 * @param topics turn counts of the most frequent topic labels (at most 10), most frequent first
 * @param mostUsedMemories inclusion counts of the most included memories (at most 10), most used first
 */
public record TelemetrySummary(
        int turns,
        int sessions,
        long curatedTokens,
        long baselineTokens,
        long tokensSaved,
        OptionalDouble compressionRatio,
        OptionalDouble bestCompression,
        OptionalDouble worstCompression,
        long memoriesScored,
        long memoriesIncluded,
        long memoriesDropped,
        Duration latencyAverage,
        Duration latencyP50,
        Duration latencyP95,
        Duration latencyMax,
        Map<String, Integer> topics,
        Map<String, Integer> mostUsedMemories) {

    private static final int TOP = 10;

    /** Copies the maps (keeping their order) and checks the components are present. */
    public TelemetrySummary {
        Objects.requireNonNull(compressionRatio, "compressionRatio");
        Objects.requireNonNull(bestCompression, "bestCompression");
        Objects.requireNonNull(worstCompression, "worstCompression");
        Objects.requireNonNull(latencyAverage, "latencyAverage");
        Objects.requireNonNull(latencyP50, "latencyP50");
        Objects.requireNonNull(latencyP95, "latencyP95");
        Objects.requireNonNull(latencyMax, "latencyMax");
        topics = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(topics));
        mostUsedMemories = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(mostUsedMemories));
    }

    /** Summarizes the given turns. */
    public static TelemetrySummary of(Collection<TurnTelemetry> turns) {
        Set<String> sessions = new HashSet<>();
        long curated = 0;
        long baseline = 0;
        long curatedWithBaseline = 0;
        long saved = 0;
        double best = Double.POSITIVE_INFINITY;
        double worst = Double.NEGATIVE_INFINITY;
        long scored = 0;
        long included = 0;
        long dropped = 0;
        long latencyNanos = 0;
        List<Duration> latencies = new ArrayList<>(turns.size());
        Map<String, Integer> topics = new HashMap<>();
        Map<String, Integer> memories = new HashMap<>();
        for (TurnTelemetry t : turns) {
            if (t.sessionId() != null) {
                sessions.add(t.sessionId());
            }
            curated += t.curatedTokens();
            if (t.baselineTokens().isPresent()) {
                baseline += t.baselineTokens().getAsInt();
                curatedWithBaseline += t.curatedTokens();
                saved += t.baselineTokens().getAsInt() - t.curatedTokens();
            }
            if (t.compressionRatio().isPresent()) {
                best = Math.min(best, t.compressionRatio().getAsDouble());
                worst = Math.max(worst, t.compressionRatio().getAsDouble());
            }
            scored += t.memoriesScored();
            included += t.memoriesIncluded();
            dropped += t.memoriesDropped();
            latencyNanos += t.latency().toNanos();
            latencies.add(t.latency());
            if (!t.topic().isEmpty()) {
                topics.merge(t.topic(), 1, Integer::sum);
            }
            for (String id : t.includedMemoryIds()) {
                memories.merge(id, 1, Integer::sum);
            }
        }
        latencies.sort(null);
        return new TelemetrySummary(turns.size(), sessions.size(), curated, baseline, saved,
                baseline > 0 ? OptionalDouble.of((double) curatedWithBaseline / baseline) : OptionalDouble.empty(),
                best <= worst ? OptionalDouble.of(best) : OptionalDouble.empty(),
                best <= worst ? OptionalDouble.of(worst) : OptionalDouble.empty(), scored, included, dropped,
                turns.isEmpty() ? Duration.ZERO : Duration.ofNanos(latencyNanos / turns.size()),
                percentile(latencies, 50), percentile(latencies, 95),
                latencies.isEmpty() ? Duration.ZERO : latencies.get(latencies.size() - 1),
                top(topics), top(memories));
    }

    /** The nearest-rank percentile of sorted values; zero for none. */
    public static Duration percentile(List<Duration> sorted, double p) {
        if (sorted.isEmpty()) {
            return Duration.ZERO;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size(), rank) - 1));
    }

    private static Map<String, Integer> top(Map<String, Integer> counts) {
        List<Map.Entry<String, Integer>> entries = new ArrayList<>(counts.entrySet());
        entries.sort((a, b) -> {
            int c = Integer.compare(b.getValue(), a.getValue());
            return c != 0 ? c : a.getKey().compareTo(b.getKey());
        });
        Map<String, Integer> out = new LinkedHashMap<>();
        for (int i = 0; i < Math.min(TOP, entries.size()); i++) {
            out.put(entries.get(i).getKey(), entries.get(i).getValue());
        }
        return out;
    }
}
