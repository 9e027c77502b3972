package dev.memfas.bench;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How many bytes one turn allocates, on every thread (the scan helpers included), as the JVM's per-thread counters
 * report them: the turn of {@link CurationBenchmark}'s {@code c_getContext} (in-memory store, synthetic memories and
 * vectors, a 4,000-token budget, no session), after a warm-up, in this JVM with whatever flags it was started with.
 * A turn that allocates little does not make the JVM touch fresh heap pages, which with default flags (no
 * {@code -XX:+AlwaysPreTouch}) the kernel must first zero.
 *
 * <pre>
 * java -cp memfas-bench/target/benchmarks.jar dev.memfas.bench.TurnAllocation [--memories 10000,100000]
 *     [--turns 500]
 * </pre>
 *
 * <p>The set-up holds about 6.3 KB of heap per memory while the store is filled (the in-memory store's 4.7 KB, the
 * synthetic data's vectors the rest): a million memories need more than the default heap of a machine with 24 GB
 * (a quarter of it); they run with {@code -Xmx12g}.
 */
public final class TurnAllocation {
    private TurnAllocation() {}

    /** Bytes allocated per turn and the median turn, in milliseconds, at one size. */
    record Result(int memories, double bytesPerTurn, double p50Millis) {}

    public static void main(String[] args) {
        String memories = "10000,100000";
        int turns = 500;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--memories" -> memories = value(args, ++i);
                case "--turns" -> turns = Integer.parseInt(value(args, ++i));
                default -> throw new IllegalArgumentException("unknown option: " + args[i]
                        + " (use --memories, --turns)");
            }
        }
        System.out.printf(Locale.ROOT, "JDK %s, %d processors, max heap %d MB%n%n", Runtime.version(),
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20);
        System.out.println("| memories | allocated per turn | p50 turn |");
        System.out.println("|---|---|---|");
        for (String n : memories.split(",")) {
            Result r = measure(Integer.parseInt(n.trim().replace("_", "")), turns);
            System.out.printf(Locale.ROOT, "| %,d | %.1f KB | %.3f ms |%n", r.memories(), r.bytesPerTurn() / 1024,
                    r.p50Millis());
        }
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException("missing value after " + args[i - 1]);
        }
        return args[i];
    }

    /** Builds a curator over {@code n} synthetic memories and measures {@code turns} turns after a warm-up. */
    static Result measure(int n, int turns) {
        CurationBenchmark.Synthetic data = new CurationBenchmark.Synthetic(n, 42);
        try (ContextCurator curator = Memfas.newBuilder()
                .embedder(new CurationBenchmark.LookupEmbedder(data.vectorByText(), null))
                .clock(Clock.fixed(Instant.parse("2026-11-22T12:00:00Z"), ZoneOffset.UTC))
                .build()) {
            List<Memory> all = data.memories();
            for (int from = 0; from < all.size(); from += 10_000) {
                curator.rememberAll(all.subList(from, Math.min(all.size(), from + 10_000)));
            }
            data.dropMemoryVectors();
            CurationBenchmark.collectSetUpGarbage();
            int query = 0;
            // Enough turns for the JIT to compile the turn's code, which allocates less than the interpreter.
            for (int i = 0; i < Math.max(2_000, turns); i++) {
                curator.getContext(request(data, query++));
            }
            var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long[] times = new long[turns];
            long before = allocated(threads);
            for (int i = 0; i < turns; i++) {
                long start = System.nanoTime();
                curator.getContext(request(data, query++));
                times[i] = System.nanoTime() - start;
            }
            long after = allocated(threads);
            Arrays.sort(times);
            return new Result(n, (double) (after - before) / turns, times[turns / 2] / 1e6);
        }
    }

    private static ContextRequest request(CurationBenchmark.Synthetic data, int i) {
        return ContextRequest.builder(data.queryTexts[i % CurationBenchmark.QUERIES]).tokenBudget(4000).build();
    }

    /** Bytes allocated so far by every live thread. */
    private static long allocated(com.sun.management.ThreadMXBean threads) {
        long sum = 0;
        for (long bytes : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
            sum += Math.max(0, bytes);
        }
        return sum;
    }
}
