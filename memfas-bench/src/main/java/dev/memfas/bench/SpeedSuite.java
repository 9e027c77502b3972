package dev.memfas.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the speed benchmarks ({@code CurationBenchmark}: bandwidth ceiling, scan, turn, LangChain4j peer; and
 * {@code EmbeddedTurnBenchmark}: a turn with the query embedding, and a chat's turn with its history) in one JMH run
 * and prints medians, p95 and the ratios scan / ceiling and peer / turn per size, and chat turn / plain turn. The
 * benchmarks touch their heap at start-up ({@code -XX:+AlwaysPreTouch}); the turns are then measured again in JVMs
 * that do not, as users run them, and the ratio of the two is printed.
 *
 * <pre>
 * java -cp memfas-bench/target/benchmarks.jar dev.memfas.bench.SpeedSuite [--memories 1000,10000,100000,1000000]
 *     [--turn-memories 10000] [--vector-api] [--quick] [--out target/speed.md]
 * </pre>
 *
 * {@code --vector-api} forks the benchmarks with {@code --add-modules jdk.incubator.vector}, so on Java 21+ the index
 * scans int8 codes with the Vector API. {@code --quick} runs one short iteration in this JVM (no fork, so no flags):
 * a smoke run, not a measurement.
 */
public final class SpeedSuite {
    private SpeedSuite() {}

    /** Median and 95th percentile of one benchmark at one size, in milliseconds. */
    record Timing(double p50, double p95) {}

    public static void main(String[] args) throws Exception {
        String memories = "1000,10000,100000,1000000";
        String turnMemories = "10000";
        boolean quick = false;
        boolean vectorApi = false;
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--memories" -> memories = value(args, ++i);
                case "--turn-memories" -> turnMemories = value(args, ++i);
                case "--quick" -> quick = true;
                case "--vector-api" -> vectorApi = true;
                case "--out" -> out = Path.of(value(args, ++i));
                default -> throw new IllegalArgumentException("unknown option: " + args[i]
                        + " (use --memories, --turn-memories, --quick, --vector-api, --out)");
            }
        }
        String table = run(memories, turnMemories, quick, vectorApi);
        System.out.println(table);
        if (out != null) {
            Files.writeString(out, table);
        }
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException("missing value after " + args[i - 1]);
        }
        return args[i];
    }

    /** Runs both benchmark classes and returns the Markdown table. */
    static String run(String memories, String turnMemories, boolean quick, boolean vectorApi)
            throws RunnerException, IOException {
        Map<String, Map<Integer, Timing>> timings = new LinkedHashMap<>();
        collect(timings, options(quick, vectorApi).include("dev\\.memfas\\.bench\\.CurationBenchmark\\.")
                .param("memories", memories.split(",")).build());
        collect(timings, options(quick, vectorApi).include("dev\\.memfas\\.bench\\.EmbeddedTurnBenchmark\\.")
                .param("memories", turnMemories.split(",")).build());
        if (!quick) {
            // The turns again in JVMs that do not touch their heap at start-up, as users run them: a turn that
            // allocates much then pays the kernel for zeroing fresh heap pages. The heap's maximum stays, for 1M.
            collect(timings, options(false, vectorApi).jvmArgsAppend("-Xmx12g")
                    .include("dev\\.memfas\\.bench\\.CurationBenchmark\\.c_getContext")
                    .param("memories", memories.split(",")).build(), NO_PRE_TOUCH);
            collect(timings, options(false, vectorApi).jvmArgsAppend("-Xmx2g")
                    .include("dev\\.memfas\\.bench\\.EmbeddedTurnBenchmark\\.")
                    .param("memories", turnMemories.split(",")).build(), NO_PRE_TOUCH);
        }
        return table(timings, vectorApi);
    }

    private static ChainedOptionsBuilder options(boolean quick, boolean vectorApi) {
        // A full run goes on past a failing size (the table shows it as "–"); the smoke run must not.
        ChainedOptionsBuilder b = new OptionsBuilder().shouldFailOnError(quick);
        if (vectorApi) {
            // Prepended: options given here replace the benchmark's own jvmArgsAppend (heap size, pre-touch).
            b.jvmArgsPrepend("--add-modules", "jdk.incubator.vector");
        }
        if (quick) {
            b.forks(0).warmupIterations(0).measurementIterations(1).measurementTime(TimeValue.milliseconds(200))
                    .verbosity(org.openjdk.jmh.runner.options.VerboseMode.SILENT);
        }
        return b;
    }

    /** Appended to a benchmark's name for its run without {@code -XX:+AlwaysPreTouch}. */
    static final String NO_PRE_TOUCH = "@noPreTouch";

    private static void collect(Map<String, Map<Integer, Timing>> timings, org.openjdk.jmh.runner.options.Options o)
            throws RunnerException {
        collect(timings, o, "");
    }

    private static void collect(Map<String, Map<Integer, Timing>> timings, org.openjdk.jmh.runner.options.Options o,
            String suffix) throws RunnerException {
        Collection<RunResult> results = new Runner(o).run();
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark();
            name = name.substring(name.lastIndexOf('.') + 1) + suffix;
            int n = Integer.parseInt(r.getParams().getParam("memories"));
            var stats = r.getPrimaryResult().getStatistics();
            timings.computeIfAbsent(name, k -> new TreeMap<>())
                    .put(n, new Timing(stats.getPercentile(50), stats.getPercentile(95)));
        }
    }

    static String table(Map<String, Map<Integer, Timing>> timings, boolean vectorApi) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "JDK %s (%s), %d processors, %s%n%n",
                Runtime.version(), System.getProperty("java.vm.name"), Runtime.getRuntime().availableProcessors(),
                vectorApi ? "benchmarks forked with --add-modules jdk.incubator.vector (the int8 scan on Java 21+)"
                        : "no flags (the 16-bit scan)"));
        sb.append("| memories | (a) ceiling p50 | (b) scan p50 | (b)/(a) | (c) turn p50 | (c) turn p95"
                + " | (e) peer p50 | (e)/(c) | (c) turn p50, no pre-touch | no pre-touch / pre-touched |\n");
        sb.append("|---|---|---|---|---|---|---|---|---|---|\n");
        Map<Integer, Timing> a = timings.getOrDefault("a_bandwidthCeiling", Map.of());
        Map<Integer, Timing> b = timings.getOrDefault("b_scan", Map.of());
        Map<Integer, Timing> c = timings.getOrDefault("c_getContext", Map.of());
        Map<Integer, Timing> e = timings.getOrDefault("e_peerSearch", Map.of());
        Map<Integer, Timing> cCold = timings.getOrDefault("c_getContext" + NO_PRE_TOUCH, Map.of());
        List<Integer> sizes = new ArrayList<>(new TreeMap<>(b).keySet());
        for (int n : sizes) {
            sb.append(String.format(Locale.ROOT, "| %,d | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", n,
                    ms(a, n, false), ms(b, n, false), ratio(b, a, n), ms(c, n, false), ms(c, n, true), ms(e, n, false),
                    ratio(e, c, n), ms(cCold, n, false), ratio(cCold, c, n)));
        }
        Map<Integer, Timing> d = timings.getOrDefault("d_getContextWithQueryEmbedding", Map.of());
        Map<Integer, Timing> dCold = timings.getOrDefault("d_getContextWithQueryEmbedding" + NO_PRE_TOUCH, Map.of());
        for (Map.Entry<Integer, Timing> t : d.entrySet()) {
            sb.append(String.format(Locale.ROOT, "%n(d) turn including the query embedding, %,d memories: p50 %.2f ms,"
                    + " p95 %.2f ms; without pre-touch p50 %s%n", t.getKey(), t.getValue().p50(), t.getValue().p95(),
                    ms(dCold, t.getKey(), false)));
        }
        Map<Integer, Timing> f = timings.getOrDefault("f_getContextInAChat", Map.of());
        for (Map.Entry<Integer, Timing> t : f.entrySet()) {
            sb.append(String.format(Locale.ROOT, "%n(f) a chat's turn, its latest six messages passed with it, %,d"
                    + " memories: p50 %.2f ms, p95 %.2f ms; (f)/(d) %s%n", t.getKey(), t.getValue().p50(),
                    t.getValue().p95(), ratio(f, d, t.getKey())));
        }
        return sb.toString();
    }

    private static String ms(Map<Integer, Timing> m, int n, boolean p95) {
        Timing t = m.get(n);
        return t == null ? "–" : String.format(Locale.ROOT, "%.3f ms", p95 ? t.p95() : t.p50());
    }

    private static String ratio(Map<Integer, Timing> top, Map<Integer, Timing> bottom, int n) {
        Timing x = top.get(n);
        Timing y = bottom.get(n);
        return x == null || y == null ? "–" : String.format(Locale.ROOT, "%.2f", x.p50() / y.p50());
    }
}
