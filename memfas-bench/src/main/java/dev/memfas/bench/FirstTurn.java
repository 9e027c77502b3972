package dev.memfas.bench;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.spi.Embeddings;
import dev.memfas.Memory;
import dev.memfas.spi.VectorSpace;
import dev.memfas.core.Memfas;
import dev.memfas.djl.DjlEmbedder;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * What the first turn after opening costs against the turns after it, with and without
 * {@code Memfas.newBuilder().warmUp(true)}: a fresh JVM opens a SQLite store of N memories (synthetic texts, random
 * vectors under the default model's id) with the default model, then times its first {@code getContext} and the next
 * twenty. Run it once per setting, each in its own JVM, so that neither inherits the other's compiled code:
 *
 * <pre>
 * java -cp memfas-bench/target/benchmarks.jar dev.memfas.bench.FirstTurn --memories 10000 --warm-up false
 * java -cp memfas-bench/target/benchmarks.jar dev.memfas.bench.FirstTurn --memories 10000 --warm-up true
 * </pre>
 */
public final class FirstTurn {
    private static final String[] WORDS = ("deploy billing kafka retention invoice refund currency lag consumer "
            + "partition schema migration flyway review pull request incident alert dashboard grafana latency cache "
            + "redis timeout retry webhook stripe ledger postgres replica backup rollback colour pipeline").split(" ");
    private static final List<String> QUERIES = List.of("how do we deploy billing?", "what is the kafka retention?",
            "who reviews schema migrations?", "why was the invoice wrong?", "how do refunds handle currency?");

    private FirstTurn() {}

    public static void main(String[] args) throws Exception {
        int memories = 10_000;
        boolean warmUp = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--memories" -> memories = Integer.parseInt(args[++i]);
                case "--warm-up" -> warmUp = Boolean.parseBoolean(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument: " + args[i]
                        + " (usage: FirstTurn [--memories N] [--warm-up true|false])");
            }
        }
        Path db = Files.createTempDirectory("memfas-first-turn").resolve("memfas.db");
        fill(db, memories);
        long open = System.nanoTime();
        try (DjlEmbedder embedder = DjlEmbedder.defaultModel();
             ContextCurator curator = Memfas.newBuilder().store(SqliteMemoryStore.open(db)).embedder(embedder)
                     .warmUp(warmUp).build()) {
            double openMs = (System.nanoTime() - open) / 1e6;
            double first = turn(curator, QUERIES.get(0), "first");
            double[] later = new double[20];
            for (int i = 0; i < later.length; i++) {
                later[i] = turn(curator, QUERIES.get((i + 1) % QUERIES.size()), "s" + i);
            }
            Arrays.sort(later);
            System.out.printf(Locale.ROOT, "%d memories, warm-up %s: open (model, index%s) %.0f ms; first turn %.1f"
                    + " ms; later turns median %.1f ms, max %.1f ms; first / median %.1f%n", memories, warmUp,
                    warmUp ? ", warm-up" : "", openMs, first, later[later.length / 2], later[later.length - 1],
                    first / later[later.length / 2]);
        }
    }

    private static double turn(ContextCurator curator, String query, String session) {
        long t = System.nanoTime();
        curator.getContext(ContextRequest.builder(query).sessionId(session).tokenBudget(1_000).build());
        return (System.nanoTime() - t) / 1e6;
    }

    /** A SQLite store of n synthetic memories with random vectors under the default model's id. */
    static void fill(Path db, int n) {
        Random random = new Random(7);
        VectorSpace space = new VectorSpace(DjlEmbedder.DEFAULT_MODEL.modelId(),
                DjlEmbedder.DEFAULT_MODEL.dimension());
        try (SqliteMemoryStore store = SqliteMemoryStore.open(db)) {
            for (int from = 0; from < n; from += 1_000) {
                List<Memory> batch = new ArrayList<>();
                List<float[]> vectors = new ArrayList<>();
                for (int i = from; i < Math.min(n, from + 1_000); i++) {
                    StringBuilder text = new StringBuilder();
                    for (int w = 0; w < 12; w++) {
                        text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
                    }
                    batch.add(Memory.builder(text.toString().strip()).id("m" + i)
                            .createdAt(Instant.parse("2026-01-01T00:00:00Z").plusSeconds(i * 60L)).build());
                    float[] v = new float[space.dimension()];
                    for (int d = 0; d < v.length; d++) {
                        v[d] = (float) random.nextGaussian();
                    }
                    vectors.add(v);
                }
                store.upsertAll(batch, Embeddings.of(space, vectors));
            }
        }
    }
}
