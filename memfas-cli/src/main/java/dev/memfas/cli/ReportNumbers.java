package dev.memfas.cli;

import dev.memfas.telemetry.ExtractionTelemetry;
import dev.memfas.telemetry.TurnTelemetry;
import dev.memfas.telemetry.UsageTelemetry;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;

/**
 * The numbers of a telemetry report, computed from the turns and usage reports of a period: totals, a row per day
 * (UTC), latency over time, budget use, the most included memories, and the precision signal: of the memories included
 * in turns whose session reported usage before its next turn, the share reported helpful.
 */
record ReportNumbers(
        Totals totals,
        List<Day> days,
        List<LatencyBucket> latency,
        int[] utilization,
        List<MemoryUse> mostIncluded,
        Precision precision,
        Facts facts,
        List<TurnTelemetry> turns) {

    /** The ten bins of budget use: [0, 10%), [10%, 20%), ..., [90%, 100%] (a context never passes its budget). */
    static final int UTILIZATION_BINS = 10;
    static final int MOST_INCLUDED = 10;

    record Totals(int turns, int sessions, long curatedTokens, long baselineTokens, long tokensSaved,
            int turnsWithBaseline, double latencyP50Ms, double latencyP95Ms, double meanUtilization, int topicShifts,
            Instant first, Instant last) {}

    record Day(LocalDate date, int turns, long curatedTokens, long baselineTokens, long tokensSaved,
            double latencyP50Ms, double latencyP95Ms, double meanUtilization, int topicShifts) {}

    /** Latency of the turns that started in [start, start + width). */
    record LatencyBucket(Instant start, int turns, double p50Ms, double p95Ms) {}

    record MemoryUse(String namespace, String id, int included, int reportedHelpful) {}

    /**
     * @param reportedTurns turns whose session reported usage before its next turn
     * @param included memories included in those turns
     * @param helpful of those, the ones reported helpful
     */
    record Precision(int reportedTurns, long included, long helpful) {
        OptionalDouble share() {
            return included == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) helpful / included);
        }
    }

    /**
     * What remembered conversations' facts gave and cost.
     *
     * @param conversations conversations remembered
     * @param facts facts taken from them
     * @param failed conversations whose extraction failed
     * @param inputTokens tokens the extractor's model read
     * @param outputTokens tokens it wrote
     * @param cost their price, in the unit the extractor was given prices in
     */
    record Facts(int conversations, long facts, int failed, long inputTokens, long outputTokens, double cost) {
        static Facts of(List<ExtractionTelemetry> extractions) {
            long facts = 0;
            int failed = 0;
            long in = 0;
            long out = 0;
            double cost = 0;
            for (ExtractionTelemetry e : extractions) {
                facts += e.facts();
                failed += e.failed() ? 1 : 0;
                in += e.inputTokens();
                out += e.outputTokens();
                cost += e.cost();
            }
            return new Facts(extractions.size(), facts, failed, in, out, cost);
        }
    }

    static ReportNumbers of(List<TurnTelemetry> turnsGiven, List<UsageTelemetry> usage) {
        return of(turnsGiven, usage, List.of());
    }

    static ReportNumbers of(List<TurnTelemetry> turnsGiven, List<UsageTelemetry> usage,
            List<ExtractionTelemetry> extractions) {
        List<TurnTelemetry> turns = new ArrayList<>(turnsGiven);
        turns.sort(Comparator.comparing(TurnTelemetry::timestamp));
        Map<LocalDate, List<TurnTelemetry>> byDay = new TreeMap<>();
        for (TurnTelemetry t : turns) {
            byDay.computeIfAbsent(LocalDate.ofInstant(t.timestamp(), ZoneOffset.UTC), d -> new ArrayList<>()).add(t);
        }
        List<Day> days = new ArrayList<>();
        byDay.forEach((date, of) -> {
            Sums s = Sums.of(of);
            days.add(new Day(date, of.size(), s.curated, s.baseline, s.saved, percentileMs(of, 50),
                    percentileMs(of, 95), s.meanUtilization(of.size()), s.shifts));
        });
        Sums all = Sums.of(turns);
        Set<String> sessions = new HashSet<>();
        turns.forEach(t -> {
            if (t.sessionId() != null) {
                sessions.add(t.namespace() + "\u0000" + t.sessionId());
            }
        });
        Totals totals = new Totals(turns.size(), sessions.size(), all.curated, all.baseline, all.saved,
                all.withBaseline, percentileMs(turns, 50), percentileMs(turns, 95), all.meanUtilization(turns.size()),
                all.shifts, turns.isEmpty() ? null : turns.get(0).timestamp(),
                turns.isEmpty() ? null : turns.get(turns.size() - 1).timestamp());
        int[] utilization = new int[UTILIZATION_BINS];
        for (TurnTelemetry t : turns) {
            utilization[utilizationBin(t)]++;
        }
        Feedback feedback = Feedback.of(turns, usage);
        return new ReportNumbers(totals, days, latency(turns), utilization, mostIncluded(turns, feedback.helpfulById),
                feedback.precision, Facts.of(extractions), List.copyOf(turns));
    }

    static int utilizationBin(TurnTelemetry t) {
        double used = t.budget() <= 0 ? 0 : (double) t.curatedTokens() / t.budget();
        return Math.min(UTILIZATION_BINS - 1, Math.max(0, (int) Math.floor(used * UTILIZATION_BINS)));
    }

    /** Nearest rank: the value at rank ⌈p/100 · n⌉ of the sorted latencies, as TelemetrySummary reads them. */
    static double percentileMs(Collection<TurnTelemetry> turns, int p) {
        if (turns.isEmpty()) {
            return 0;
        }
        long[] nanos = turns.stream().mapToLong(t -> t.latency().toNanos()).sorted().toArray();
        int rank = (int) Math.ceil(p / 100.0 * nanos.length);
        return nanos[Math.max(0, rank - 1)] / 1e6;
    }

    /** Hours when the turns span two days or less, else days; each bucket that holds turns. */
    private static List<LatencyBucket> latency(List<TurnTelemetry> turns) {
        if (turns.isEmpty()) {
            return List.of();
        }
        Instant first = turns.get(0).timestamp();
        Instant last = turns.get(turns.size() - 1).timestamp();
        ChronoUnit unit = Duration.between(first, last).compareTo(Duration.ofDays(2)) <= 0 ? ChronoUnit.HOURS
                : ChronoUnit.DAYS;
        Map<Instant, List<TurnTelemetry>> buckets = new TreeMap<>();
        for (TurnTelemetry t : turns) {
            buckets.computeIfAbsent(t.timestamp().truncatedTo(unit), b -> new ArrayList<>()).add(t);
        }
        List<LatencyBucket> out = new ArrayList<>();
        buckets.forEach((start, of) -> out.add(new LatencyBucket(start, of.size(), percentileMs(of, 50),
                percentileMs(of, 95))));
        return out;
    }

    private static List<MemoryUse> mostIncluded(List<TurnTelemetry> turns, Map<List<String>, Integer> helpful) {
        Map<List<String>, Integer> counts = new LinkedHashMap<>();
        for (TurnTelemetry t : turns) {
            for (String id : t.includedMemoryIds()) {
                counts.merge(List.of(t.namespace(), id), 1, Integer::sum);
            }
        }
        return counts.entrySet().stream()
                .sorted(Map.Entry.<List<String>, Integer>comparingByValue().reversed()
                        .thenComparing(e -> e.getKey().get(0) + "/" + e.getKey().get(1)))
                .limit(MOST_INCLUDED)
                .map(e -> new MemoryUse(e.getKey().get(0), e.getKey().get(1), e.getValue(),
                        helpful.getOrDefault(e.getKey(), 0)))
                .toList();
    }

    /** Token sums of some turns. */
    private static final class Sums {
        long curated;
        long baseline;
        long saved;
        int withBaseline;
        int shifts;
        double utilization;

        static Sums of(List<TurnTelemetry> turns) {
            Sums s = new Sums();
            for (TurnTelemetry t : turns) {
                s.curated += t.curatedTokens();
                if (t.baselineTokens().isPresent()) {
                    s.baseline += t.baselineTokens().getAsInt();
                    s.saved += t.tokensSaved().orElse(0);
                    s.withBaseline++;
                }
                if (t.topicShifted()) {
                    s.shifts++;
                }
                s.utilization += t.budget() <= 0 ? 0 : (double) t.curatedTokens() / t.budget();
            }
            return s;
        }

        double meanUtilization(int n) {
            return n == 0 ? 0 : utilization / n;
        }
    }

    /**
     * The usage reports set against the turns they follow: a report belongs to the latest turn of its namespace and
     * session that started at or before it.
     */
    private record Feedback(Precision precision, Map<List<String>, Integer> helpfulById) {
        static Feedback of(List<TurnTelemetry> turns, List<UsageTelemetry> usage) {
            Map<String, List<TurnTelemetry>> bySession = new HashMap<>();
            for (TurnTelemetry t : turns) {
                if (t.sessionId() != null) {
                    bySession.computeIfAbsent(t.namespace() + "\u0000" + t.sessionId(), k -> new ArrayList<>()).add(t);
                }
            }
            // By identity: two turns with equal fields are still two turns.
            Map<TurnTelemetry, Set<String>> helpfulOf = new IdentityHashMap<>();
            Set<TurnTelemetry> reported = Collections.newSetFromMap(new IdentityHashMap<>());
            for (UsageTelemetry u : usage) {
                TurnTelemetry turn = latestAtOrBefore(bySession.get(u.namespace() + "\u0000" + u.sessionId()),
                        u.timestamp());
                if (turn == null) {
                    continue;
                }
                reported.add(turn);
                if (u.helpful()) {
                    helpfulOf.computeIfAbsent(turn, k -> new HashSet<>()).addAll(u.memoryIds());
                }
            }
            long included = 0;
            long helpful = 0;
            Map<List<String>, Integer> helpfulById = new HashMap<>();
            for (TurnTelemetry t : reported) {
                Set<String> said = helpfulOf.getOrDefault(t, Set.of());
                included += t.includedMemoryIds().size();
                for (String id : t.includedMemoryIds()) {
                    if (said.contains(id)) {
                        helpful++;
                        helpfulById.merge(List.of(t.namespace(), id), 1, Integer::sum);
                    }
                }
            }
            return new Feedback(new Precision(reported.size(), included, helpful), helpfulById);
        }

        private static TurnTelemetry latestAtOrBefore(List<TurnTelemetry> turns, Instant at) {
            TurnTelemetry latest = null;
            if (turns != null) {
                for (TurnTelemetry t : turns) {
                    if (!t.timestamp().isAfter(at)) {
                        latest = t;
                    }
                }
            }
            return latest;
        }
    }
}
