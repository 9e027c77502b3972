package dev.memfas.core.turn;

import dev.memfas.telemetry.SessionSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * A session's running totals, for its {@link SessionSummary} when it ends: when it started and last turned, how many
 * turns, tokens curated and saved, which memories its contexts included and how often, and its latencies. Bounded
 * whatever the session's length: memories are counted up to {@value SessionSummary#MAX_MEMORIES_COUNTED} distinct
 * ids, latencies kept for the percentile over the latest {@value SessionSummary#LATENCIES_KEPT} turns (a ring of
 * longs, 32 KB), their mean over all. Guarded by its {@link SessionState}'s lock.
 */
final class SessionLedger {
    private static final int MOST_USED = 5;

    private Instant started;
    private Instant last;
    private int turns;
    private long curated;
    private long baseline;
    private long saved;
    private long latencyNanos;
    private final long[] latencies = new long[SessionSummary.LATENCIES_KEPT];
    private final Map<String, Integer> inclusions = new HashMap<>();

    void record(Instant at, int curatedTokens, OptionalInt baselineTokens, Duration latency, List<String> included) {
        if (started == null) {
            started = at;
        }
        last = at;
        latencies[turns % latencies.length] = latency.toNanos();
        turns++;
        curated += curatedTokens;
        if (baselineTokens.isPresent()) {
            baseline += baselineTokens.getAsInt();
            saved += baselineTokens.getAsInt() - curatedTokens;
        }
        latencyNanos += latency.toNanos();
        for (String id : included) {
            if (inclusions.containsKey(id) || inclusions.size() < SessionSummary.MAX_MEMORIES_COUNTED) {
                inclusions.merge(id, 1, Integer::sum);
            }
        }
    }

    int turns() {
        return turns;
    }

    SessionSummary summary(String sessionId, String namespace, SessionSummary.EndReason reason, List<String> topics,
            int topicShifts) {
        long[] kept = Arrays.copyOf(latencies, Math.min(turns, latencies.length));
        Arrays.sort(kept);
        long p95 = kept.length == 0 ? 0 : kept[Math.max(0, (int) Math.ceil(0.95 * kept.length) - 1)];
        List<Map.Entry<String, Integer>> byUse = new ArrayList<>(inclusions.entrySet());
        byUse.sort((a, b) -> {
            int c = Integer.compare(b.getValue(), a.getValue());
            return c != 0 ? c : a.getKey().compareTo(b.getKey());
        });
        Map<String, Integer> most = new LinkedHashMap<>();
        for (int i = 0; i < Math.min(MOST_USED, byUse.size()); i++) {
            most.put(byUse.get(i).getKey(), byUse.get(i).getValue());
        }
        return new SessionSummary(sessionId, namespace, started, last, reason, turns, curated, baseline, saved,
                topics, topicShifts, inclusions.size(), most,
                Duration.ofNanos(turns == 0 ? 0 : latencyNanos / turns), Duration.ofNanos(p95));
    }
}
