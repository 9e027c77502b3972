package dev.memfas.bench;

import dev.memfas.ContextCurator;
import dev.memfas.spi.Embedder;
import dev.memfas.spi.Embeddings;
import dev.memfas.Memory;
import dev.memfas.spi.VectorSpace;
import dev.memfas.core.Memfas;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
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
 * The SQLite store's open and ingest speed.
 *
 * <ul>
 *   <li>{@code openAndLoadVectors}: open a store of {@code size} memories with 384-dim vectors and read every vector,
 *       as a curator does when it first reads the namespace; {@code readVectorBlobsRaw} is the baseline in the same
 *       run: plain JDBC reading the same BLOBs without decoding.</li>
 *   <li>{@code openCurator}: open the same store and build a curator with a 384-dim embedder, which loads every
 *       vector into its index (the embedder is never called).</li>
 *   <li>{@code ingestWithoutEmbeddings}: one {@code upsertAll} of {@code batch} new memories (row, FTS5 entry) in
 *       one transaction. Memories per second = batch / time.</li>
 * </ul>
 *
 * <p>Run: {@code ./mvnw -B -q -pl memfas-bench -am package -DskipTests && java -jar
 * memfas-bench/target/benchmarks.jar SqliteStoreBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 10)
// A fixed, pre-touched heap: a JVM that grows its heap while loading 150 MB of vectors pays for committing memory
// in the middle of the measurement (seen here: 1.2 s +- 0.7 s for openCurator with the default heap, 0.5 s fixed).
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public class SqliteStoreBenchmark {
    private static final int DIMENSION = 384;

    @Param("100000")
    public int size;

    @Param("20000")
    public int batch;

    private Path dir;
    private Path loaded;
    private List<Memory> toIngest;
    private SqliteMemoryStore ingestStore;
    private int ingestRun;

    @Setup(Level.Trial)
    public void createStores() throws IOException {
        dir = Files.createTempDirectory("memfas-bench");
        loaded = dir.resolve("loaded.db");
        Random random = new Random(42);
        VectorSpace space = new VectorSpace("bench-384", DIMENSION);
        try (SqliteMemoryStore store = SqliteMemoryStore.open(loaded)) {
            for (int from = 0; from < size; from += 10_000) {
                List<Memory> memories = new ArrayList<>();
                List<float[]> vectors = new ArrayList<>();
                for (int i = from; i < Math.min(size, from + 10_000); i++) {
                    memories.add(memory("m" + i, i));
                    float[] v = new float[DIMENSION];
                    for (int d = 0; d < DIMENSION; d++) {
                        v[d] = (float) random.nextGaussian();
                    }
                    vectors.add(v);
                }
                store.upsertAll(memories, Embeddings.of(space, vectors));
            }
        }
        toIngest = new ArrayList<>(batch);
        for (int i = 0; i < batch; i++) {
            toIngest.add(memory("n" + i, i));
        }
    }

    private static Memory memory(String id, int i) {
        return Memory.builder("Memory " + i + ": the team discussed kafka retention, grafana dashboards and the "
                        + "deploy schedule; decision number " + (i * 7919 % 1000) + " was recorded.")
                .id(id).createdAt(Instant.EPOCH.plusSeconds(i)).build();
    }

    @Setup(Level.Invocation)
    public void openIngestStore() {
        ingestStore = SqliteMemoryStore.open(dir.resolve("ingest-" + (ingestRun++) + ".db"));
    }

    @TearDown(Level.Invocation)
    public void closeIngestStore() {
        ingestStore.close();
    }

    @TearDown(Level.Trial)
    public void deleteStores() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Benchmark
    public int openAndLoadVectors() {
        int[] count = {0};
        try (SqliteMemoryStore store = SqliteMemoryStore.open(loaded)) {
            store.forEachVector(Memory.DEFAULT_NAMESPACE, (id, v) -> count[0] += v.length);
        }
        return count[0];
    }

    @Benchmark
    public long openCurator() {
        try (ContextCurator curator = Memfas.newBuilder().store(SqliteMemoryStore.open(loaded))
                .embedder(new UnusedEmbedder()).build()) {
            return curator.stats().vectors();
        }
    }

    /** Stands for the model the stored vectors came from; building a curator must not call it. */
    private static final class UnusedEmbedder implements Embedder {
        @Override
        public List<float[]> embedAll(List<String> texts) {
            throw new IllegalStateException("not expected to embed while opening");
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

    @Benchmark
    public long readVectorBlobsRaw() throws SQLException {
        long bytes = 0;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + loaded);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT vector FROM vectors")) {
            while (rs.next()) {
                bytes += rs.getBytes(1).length;
            }
        }
        return bytes;
    }

    @Benchmark
    public long ingestWithoutEmbeddings() {
        ingestStore.upsertAll(toIngest);
        return ingestStore.count(Memory.DEFAULT_NAMESPACE);
    }
}
