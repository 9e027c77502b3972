package dev.memfas.bench;

import dev.memfas.ContextCurator;
import dev.memfas.spi.Embedder;
import dev.memfas.spi.Embeddings;
import dev.memfas.upkeep.MaintenanceReport;
import dev.memfas.upkeep.MaintenanceRequest;
import dev.memfas.Memory;
import dev.memfas.spi.VectorSpace;
import dev.memfas.core.Memfas;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Maintenance of a SQLite store of {@code size} memories with 384-dim vectors, created evenly over two years, none
 * used: 59% are older than the 299 days after which the default retention archives an unused memory.
 *
 * <ul>
 *   <li>{@code dryRun}: read every memory with its statistics, score its retention and decide; change nothing.</li>
 *   <li>{@code firstRun}: the same, then archive the 59% (each marked archived with its state before kept as a
 *       version), on a fresh copy of the store each time: a store maintained for the first time.</li>
 *   <li>{@code nightly}: a store maintained yesterday, maintained again a day later: it reads every memory and archives
 *       the 0.14% that crossed the threshold since.</li>
 * </ul>
 *
 * <p>Run: {@code ./mvnw -B -q -pl memfas-bench -am package -DskipTests && java -jar
 * memfas-bench/target/benchmarks.jar MaintenanceBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public class MaintenanceBenchmark {
    private static final int DIMENSION = 384;
    private static final Instant NOW = Instant.parse("2026-11-20T12:00:00Z");
    private static final Duration SPAN = Duration.ofDays(730);

    @Param("100000")
    public int size;

    private Path dir;
    private Path original;
    private Path maintained;
    private ContextCurator readOnly;
    private ContextCurator fresh;
    private ContextCurator yesterday;
    private int copies;

    @Setup(Level.Trial)
    public void createStore() throws IOException {
        dir = Files.createTempDirectory("memfas-bench");
        original = dir.resolve("original.db");
        Random random = new Random(42);
        VectorSpace space = new VectorSpace("bench-384", DIMENSION);
        try (SqliteMemoryStore store = SqliteMemoryStore.open(original)) {
            for (int from = 0; from < size; from += 10_000) {
                List<Memory> memories = new ArrayList<>();
                List<float[]> vectors = new ArrayList<>();
                for (int i = from; i < Math.min(size, from + 10_000); i++) {
                    Instant created = NOW.minusMillis((long) (SPAN.toMillis() * (double) i / size));
                    memories.add(Memory.builder("Memory " + i + ": the team discussed kafka retention and the deploy"
                            + " schedule; decision " + (i * 7919 % 1000) + ".").id("m" + i).createdAt(created)
                            .build());
                    float[] v = new float[DIMENSION];
                    for (int d = 0; d < DIMENSION; d++) {
                        v[d] = (float) random.nextGaussian();
                    }
                    vectors.add(v);
                }
                store.upsertAll(memories, Embeddings.of(space, vectors));
            }
        }
        readOnly = curator(original, NOW);
        maintained = dir.resolve("maintained.db");
        Files.copy(original, maintained);
        try (ContextCurator once = curator(maintained, NOW)) {
            once.upkeep().maintain(MaintenanceRequest.of(Memory.DEFAULT_NAMESPACE));
        }
    }

    private static ContextCurator curator(Path file, Instant now) {
        return Memfas.newBuilder().store(SqliteMemoryStore.open(file)).embedder(new UnusedEmbedder())
                .clock(Clock.fixed(now, ZoneOffset.UTC)).build();
    }

    @Setup(Level.Invocation)
    public void freshCopy() throws IOException {
        Path copy = dir.resolve("copy-" + copies + ".db");
        Files.copy(original, copy, StandardCopyOption.REPLACE_EXISTING);
        fresh = curator(copy, NOW);
        Path again = dir.resolve("again-" + (copies++) + ".db");
        Files.copy(maintained, again, StandardCopyOption.REPLACE_EXISTING);
        yesterday = curator(again, NOW.plus(Duration.ofDays(1)));
    }

    @TearDown(Level.Invocation)
    public void closeCopy() {
        fresh.close();
        yesterday.close();
    }

    @TearDown(Level.Trial)
    public void deleteStores() throws IOException {
        readOnly.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Benchmark
    public int dryRun() {
        return readOnly.upkeep().maintain(MaintenanceRequest.of(Memory.DEFAULT_NAMESPACE).asDryRun()).archived();
    }

    @Benchmark
    public int firstRun() {
        MaintenanceReport r = fresh.upkeep().maintain(MaintenanceRequest.of(Memory.DEFAULT_NAMESPACE));
        return r.archived();
    }

    @Benchmark
    public int nightly() {
        return yesterday.upkeep().maintain(MaintenanceRequest.of(Memory.DEFAULT_NAMESPACE)).archived();
    }

    /** Stands for the model the stored vectors came from; maintenance must not call it. */
    private static final class UnusedEmbedder implements Embedder {
        @Override
        public List<float[]> embedAll(List<String> texts) {
            throw new IllegalStateException("maintenance must not embed");
        }

        @Override
        public int dimension() {
            return DIMENSION;
        }

        @Override
        public String modelId() {
            return "bench-384";
        }
    }
}
