package dev.memfas.bench;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The turn of {@link CurationBenchmark}'s {@code c_getContext} in two builds at once: each build's classes in a class
 * loader of their own, in one JVM, their turns alternating in blocks, the order of the two rotating every round. Runs
 * of a whole JVM on a shared machine move by up to 10% from one to the next, so separate runs need many rounds to show
 * a difference of a few percent; two builds taking turns in one JVM share its heap, its machine and the moment, and the
 * ratio of each round's two times is read directly.
 *
 * <pre>
 * java -Xms12g -Xmx12g -XX:+AlwaysPreTouch -cp memfas-bench/target/benchmarks.jar dev.memfas.bench.BuildComparison \
 *     OTHER-benchmarks.jar [--memories 100000] [--rounds 20] [--turns 600] [--warm-up-rounds 8] [--other-first]
 * </pre>
 *
 * The other build is another {@code memfas-bench/target/benchmarks.jar}, built from another commit; its classes are
 * looked up first, and this class from this jar, so the other build needs none of this file. The build set up first
 * may gain or lose a little from where its memory lies, so compare a run with {@code --other-first} too.
 */
public final class BuildComparison {
    private BuildComparison() {}

    /** Times per turn, by round, of each build: {@code millis[build][round]}, build 0 being this one. */
    record Result(List<String> builds, double[][] millis) {
        /** The mean over the rounds of the ratio of build {@code b}'s time to this build's. */
        double meanRatio(int b) {
            double sum = 0;
            for (int r = 0; r < millis[0].length; r++) {
                sum += millis[b][r] / millis[0][r];
            }
            return sum / millis[0].length;
        }

        /** The standard error of {@link #meanRatio}. */
        double ratioError(int b) {
            int n = millis[0].length;
            if (n < 2) {
                return Double.NaN;
            }
            double mean = meanRatio(b);
            double squares = 0;
            for (int r = 0; r < n; r++) {
                double d = millis[b][r] / millis[0][r] - mean;
                squares += d * d;
            }
            return Math.sqrt(squares / (n - 1) / n);
        }

        String table() {
            StringBuilder out = new StringBuilder();
            out.append("| build | mean turn | rounds (ms per turn) | time / this build's |\n|---|---|---|---|\n");
            for (int b = 0; b < builds.size(); b++) {
                double sum = 0;
                StringBuilder rounds = new StringBuilder();
                for (double m : millis[b]) {
                    sum += m;
                    rounds.append(rounds.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.3f", m));
                }
                out.append(String.format(Locale.ROOT, "| %s | %.3f ms | %s | %s |%n", builds.get(b),
                        sum / millis[b].length, rounds, b == 0 ? "1"
                                : String.format(Locale.ROOT, "%.3f ± %.3f", meanRatio(b), ratioError(b))));
            }
            return out.toString();
        }
    }

    public static void main(String[] args) throws Exception {
        Path other = null;
        int memories = 100_000;
        int rounds = 20;
        int turns = 600;
        int warmUpRounds = 8;
        boolean otherFirst = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--memories" -> memories = Integer.parseInt(value(args, ++i).replace("_", ""));
                case "--rounds" -> rounds = Integer.parseInt(value(args, ++i));
                case "--turns" -> turns = Integer.parseInt(value(args, ++i));
                case "--warm-up-rounds" -> warmUpRounds = Integer.parseInt(value(args, ++i));
                case "--other-first" -> otherFirst = true;
                default -> {
                    if (args[i].startsWith("--") || other != null) {
                        throw new IllegalArgumentException("unknown argument: " + args[i]
                                + " (give the other build's benchmarks.jar, and --memories, --rounds, --turns,"
                                + " --warm-up-rounds, --other-first)");
                    }
                    other = Path.of(args[i]);
                }
            }
        }
        if (other == null || !Files.isRegularFile(other)) {
            throw new IllegalArgumentException("give the other build's benchmarks.jar: " + other);
        }
        System.out.printf(Locale.ROOT, "JDK %s, %d processors, %,d memories, %d rounds of %d turns after %d%n%n",
                Runtime.version(), Runtime.getRuntime().availableProcessors(), memories, rounds, turns, warmUpRounds);
        List<URL> self = List.of(thisJar());
        List<URL> theirs = List.of(other.toUri().toURL(), thisJar());
        Result result = compare(List.of("this build", other.getFileName().toString()), List.of(self, theirs), memories,
                rounds, turns, warmUpRounds, otherFirst);
        System.out.print(result.table());
    }

    private static URL thisJar() {
        return BuildComparison.class.getProtectionDomain().getCodeSource().getLocation();
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException("missing value after " + args[i - 1]);
        }
        return args[i];
    }

    /**
     * Sets up a curator over {@code memories} synthetic memories in each build (each build's class path, in a loader of
     * its own), then runs {@code warmUpRounds} rounds untimed and {@code rounds} timed, each round a block of
     * {@code turns} turns per build.
     *
     * @param setUpLastFirst whether the last build is set up first
     */
    static Result compare(List<String> names, List<List<URL>> classPaths, int memories, int rounds, int turns,
            int warmUpRounds, boolean setUpLastFirst) throws ReflectiveOperationException {
        if (rounds < 1 || turns < 1 || warmUpRounds < 0) {
            throw new IllegalArgumentException("rounds and turns must be positive and warm-up rounds not negative: "
                    + rounds + ", " + turns + ", " + warmUpRounds);
        }
        int builds = classPaths.size();
        Object[] drivers = new Object[builds];
        Method[] run = new Method[builds];
        List<URLClassLoader> loaders = new ArrayList<>();
        try {
            for (int i = 0; i < builds; i++) {
                int b = setUpLastFirst ? (i + builds - 1) % builds : i;
                URLClassLoader loader = new URLClassLoader(classPaths.get(b).toArray(URL[]::new),
                        ClassLoader.getPlatformClassLoader());
                loaders.add(loader);
                Class<?> driver = loader.loadClass(Turns.class.getName());
                drivers[b] = driver.getConstructor(int.class).newInstance(memories);
                run[b] = driver.getMethod("run", int.class);
                CurationBenchmark.collectSetUpGarbage();
            }
            double[][] millis = new double[builds][rounds];
            for (int r = -warmUpRounds; r < rounds; r++) {
                for (int i = 0; i < builds; i++) {
                    int b = Math.floorMod(i + r, builds);
                    long start = System.nanoTime();
                    run[b].invoke(drivers[b], turns);
                    double perTurn = (System.nanoTime() - start) / 1e6 / turns;
                    if (r >= 0) {
                        millis[b][r] = perTurn;
                    }
                }
            }
            return new Result(names, millis);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("a build failed: " + e.getCause(), e.getCause());
        } finally {
            for (Object d : drivers) {
                if (d instanceof AutoCloseable c) {
                    try {
                        c.close();
                    } catch (Exception ignored) {
                        // Closing a curator over memory does not fail; the comparison is what matters.
                    }
                }
            }
            for (URLClassLoader loader : loaders) {
                try {
                    loader.close();
                } catch (java.io.IOException ignored) {
                    // Only the jar files' handles.
                }
            }
        }
    }

    /** The class paths of this JVM ({@code java.class.path}) as URLs: a build for {@link #compare} in tests. */
    static List<URL> ownClassPath() throws MalformedURLException {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                urls.add(Path.of(entry).toUri().toURL());
            }
        }
        return urls;
    }

    /**
     * One build's curator and its turns, loaded in that build's class loader: the same memories, vectors, clock and
     * requests as {@code c_getContext}. It is linked against the other build's classes, so it calls only what older
     * builds have too ({@code Memfas.newBuilder}, {@code rememberAll}, {@code getContext},
     * {@code CurationBenchmark.Synthetic}; b4c9c4d has them all), and sets the curator up itself rather than through a
     * newer helper.
     * Public, with a public constructor and method, for reflection from another class loader.
     */
    public static final class Turns implements AutoCloseable {
        private final CurationBenchmark.Synthetic data;
        private final ContextCurator curator;
        private int next;

        public Turns(int memories) {
            data = new CurationBenchmark.Synthetic(memories, 42);
            curator = Memfas.newBuilder()
                    .embedder(new CurationBenchmark.LookupEmbedder(data.vectorByText(), null))
                    .clock(Clock.fixed(Instant.parse("2026-11-22T12:00:00Z"), ZoneOffset.UTC))
                    .build();
            List<Memory> all = data.memories();
            for (int from = 0; from < all.size(); from += 10_000) {
                curator.rememberAll(all.subList(from, Math.min(all.size(), from + 10_000)));
            }
            data.dropMemoryVectors();
        }

        /** Runs {@code turns} turns; returns the items they included, so the JIT cannot drop them. */
        public long run(int turns) {
            long items = 0;
            for (int i = 0; i < turns; i++) {
                items += curator.getContext(ContextRequest.builder(data.queryTexts[next]).tokenBudget(4000).build())
                        .items().size();
                next = (next + 1) % CurationBenchmark.QUERIES;
            }
            return items;
        }

        @Override
        public void close() {
            curator.close();
        }
    }
}
