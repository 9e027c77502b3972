package dev.memfas.bench;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.Conversation;
import dev.memfas.spi.Embedder;
import dev.memfas.Memory;
import dev.memfas.spi.MemoryStore;
import dev.memfas.core.Memfas;
import dev.memfas.core.store.InMemoryMemoryStore;
import dev.memfas.postgres.PostgresMemoryStore;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Supplier;

/**
 * The PostgreSQL store against the SQLite store, on the same data, in one run. Memories are 12 words of a Zipfian
 * vocabulary (queries 3), with random 384-dim vectors. Measured: ingest rate (memories with 384-dim
 * vectors, in batches of 1,000), the time to build a curator over N memories (it loads every vector into its index),
 * getContext p50 / p95 over N memories (BM25 in the database, the vector scan in process, neighbors, token counts,
 * access written), and the first turn of a curator after another store object (another process's, to the store)
 * wrote 1,000 memories, against its turns before.
 *
 * <pre>
 * java -cp memfas-bench/target/benchmarks.jar dev.memfas.bench.PostgresVsSqlite [--memories N] [--turns T]
 *     [--postgres URL|embedded]
 * </pre>
 */
public final class PostgresVsSqlite {
    private static final int DIMENSION = 384;
    /**
     * A vocabulary of 5,000 made-up words whose use follows Zipf's law, as words in natural text do: the r-th most
     * common is used in proportion to 1/r. Ranks start at 50: natural text's fifty most common words are stop words,
     * which neither store indexes (with them, a query's words were in nearly every memory).
     */
    private static final String[] WORDS = new String[5000];
    private static final double[] CUMULATIVE = new double[WORDS.length];

    static {
        String[] syllables = {"ba", "ko", "ri", "mu", "te", "sa", "lo", "ni", "da", "ve", "pu", "ga", "zo", "fi",
            "ne", "ru", "ka", "mi", "to", "se"};
        double total = 0;
        for (int r = 0; r < WORDS.length; r++) {
            WORDS[r] = syllables[r % 20] + syllables[(r / 20) % 20] + syllables[(r / 400) % 20] + "x";
            total += 1.0 / (r + 51);
            CUMULATIVE[r] = total;
        }
        for (int r = 0; r < WORDS.length; r++) {
            CUMULATIVE[r] /= total;
        }
    }

    /** A word of the vocabulary, drawn by Zipf's law. */
    static String word(Random random) {
        int r = java.util.Arrays.binarySearch(CUMULATIVE, random.nextDouble());
        return WORDS[Math.min(WORDS.length - 1, r < 0 ? -r - 1 : r)];
    }

    private PostgresVsSqlite() {}

    public static void main(String[] args) throws Exception {
        int memories = 100_000;
        int turns = 300;
        String postgres = "embedded";
        boolean inMemory = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--in-memory" -> inMemory = true;
                case "--memories" -> memories = Integer.parseInt(args[++i]);
                case "--turns" -> turns = Integer.parseInt(args[++i]);
                case "--postgres" -> postgres = args[++i];
                default -> throw new IllegalArgumentException("unknown argument: " + args[i]
                        + " (usage: PostgresVsSqlite [--memories N] [--turns T] [--postgres URL|embedded]"
                        + " [--in-memory])");
            }
        }
        String url = PostgresEval.newSchema(postgres);
        Path db = Files.createTempDirectory("memfas-store-bench").resolve("memfas.db");
        System.out.printf(Locale.ROOT, "%d memories, %d-dim vectors, %d turns; PostgreSQL at %s, SQLite at %s%n",
                memories, DIMENSION, turns, url.replaceAll("\\?.*", ""), db);
        Row sqlite = measure("sqlite", () -> SqliteMemoryStore.open(db), memories, turns);
        Row pg = measure("postgres", () -> PostgresMemoryStore.open(url), memories, turns);
        System.out.println();
        System.out.println("| store | ingest memories/s | build curator (load vectors) ms | getContext p50 ms | p95 ms "
                + "| first turn after 1,000 writes elsewhere ms (catch-up) |");
        System.out.println("|---|---|---|---|---|---|");
        for (Row r : List.of(sqlite, pg)) {
            System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %.2f | %.2f | %.1f (%.1f) |%n", r.store, r.ingestRate,
                    r.openMillis, r.p50, r.p95, r.firstTurnAfterWrites, r.firstTurnAfterWrites - r.p50);
        }
        System.out.printf(Locale.ROOT, "postgres / sqlite: ingest %.2f, build %.2f, p50 %.2f, p95 %.2f%n",
                pg.ingestRate / sqlite.ingestRate, pg.openMillis / sqlite.openMillis, pg.p50 / sqlite.p50,
                pg.p95 / sqlite.p95);
        if (!Boolean.getBoolean("keep")) {
            PostgresEval.dropSchema(url);
        }
        if (inMemory) {
            double[] memory = inMemory(memories, turns);
            System.out.printf(Locale.ROOT, "in-memory store: p50 %.2f ms, p95 %.2f ms; sqlite / in-memory: p50 %.2f,"
                    + " p95 %.2f%n", memory[0], memory[1], sqlite.p50 / memory[0], sqlite.p95 / memory[1]);
        }
    }

    /** The same memories in the in-memory store, and the same turns over it: p50 and p95 in ms. */
    private static double[] inMemory(int memories, int turns) {
        Random random = new Random(42);
        try (ContextCurator curator = Memfas.newBuilder().store(new InMemoryMemoryStore())
                .embedder(new QueryEmbedder()).build()) {
            for (int from = 0; from < memories; from += 1000) {
                List<Memory> batch = new ArrayList<>();
                for (int i = from; i < Math.min(memories, from + 1000); i++) {
                    batch.add(memory("m" + i, i, random));
                }
                curator.rememberAll(batch);
            }
            Random queries = new Random(7);
            for (int i = 0; i < turns / 3; i++) {
                turn(curator, queries);
            }
            double[] millis = new double[turns];
            for (int i = 0; i < turns; i++) {
                millis[i] = turn(curator, queries);
            }
            Arrays.sort(millis);
            return new double[] {millis[turns / 2], millis[(int) Math.ceil(turns * 0.95) - 1]};
        }
    }

    private record Row(String store, double ingestRate, double openMillis, double p50, double p95,
            double firstTurnAfterWrites) {}

    private static Row measure(String name, Supplier<MemoryStore> open, int memories, int turns) {
        Random random = new Random(42);
        long start = System.nanoTime();
        // Through a curator, as an application writes: each memory's token count is kept with it.
        try (ContextCurator curator = Memfas.newBuilder().store(open.get()).embedder(new QueryEmbedder()).build()) {
            for (int from = 0; from < memories; from += 1000) {
                List<Memory> batch = new ArrayList<>();
                for (int i = from; i < Math.min(memories, from + 1000); i++) {
                    batch.add(memory("m" + i, i, random));
                }
                curator.rememberAll(batch);
            }
        }
        double ingestRate = memories / ((System.nanoTime() - start) / 1e9);
        System.out.printf(Locale.ROOT, "%s: ingested %d in %.1f s%n", name, memories, memories / ingestRate);

        double[] opens = new double[3];
        for (int k = 0; k < opens.length; k++) {
            long t = System.nanoTime();
            try (ContextCurator curator = Memfas.newBuilder().store(open.get()).embedder(new QueryEmbedder()).build()) {
                curator.stats();
            }
            opens[k] = (System.nanoTime() - t) / 1e6;
        }
        Arrays.sort(opens);

        try (ContextCurator curator = Memfas.newBuilder().store(open.get()).embedder(new QueryEmbedder()).build();
                ContextCurator other = Memfas.newBuilder().store(open.get()).embedder(new QueryEmbedder()).build()) {
            Random queries = new Random(7);
            for (int i = 0; i < turns / 3; i++) {
                turn(curator, queries); // warm-up
            }
            double[] millis = new double[turns];
            for (int i = 0; i < turns; i++) {
                millis[i] = turn(curator, queries);
            }
            Arrays.sort(millis);
            double p50 = millis[turns / 2];
            double p95 = millis[(int) Math.ceil(turns * 0.95) - 1];
            // Another writer (a curator over a store object of its own, as another process's): 1,000 memories in
            // batches of 100, then this curator's next turn.
            double[] after = new double[3];
            for (int round = 0; round < after.length; round++) {
                for (int b = 0; b < 10; b++) {
                    List<Memory> batch = new ArrayList<>();
                    for (int i = 0; i < 100; i++) {
                        int n = memories + round * 1000 + b * 100 + i;
                        batch.add(memory("x" + n, n, random));
                    }
                    other.rememberAll(batch);
                }
                after[round] = turn(curator, queries);
            }
            Arrays.sort(after);
            System.out.printf(Locale.ROOT, "%s: build %.0f ms, p50 %.2f ms, p95 %.2f ms, after 1,000 writes %.1f ms%n",
                    name, opens[1], p50, p95, after[1]);
            return new Row(name, ingestRate, opens[1], p50, p95, after[1]);
        }
    }

    private static double turn(ContextCurator curator, Random queries) {
        String q = word(queries) + " " + word(queries) + " and " + word(queries) + "?";
        long t = System.nanoTime();
        curator.getContext(ContextRequest.builder(q).sessionId("bench").tokenBudget(1024).build());
        return (System.nanoTime() - t) / 1e6;
    }

    private static Memory memory(String id, int i, Random random) {
        StringBuilder text = new StringBuilder("Note " + i + ":");
        for (int w = 0; w < 12; w++) {
            text.append(' ').append(word(random));
        }
        return Memory.builder(text.toString()).id(id).source("chat:" + (i / 200)).kind(Conversation.TURN_KIND)
                .createdAt(Instant.parse("2026-01-01T00:00:00Z").plusSeconds(i * 60L)).build();
    }

    private static float[] vector(Random random) {
        float[] v = new float[DIMENSION];
        for (int d = 0; d < DIMENSION; d++) {
            v[d] = (float) random.nextGaussian();
        }
        return v;
    }

    /** A query's vector from its text's hash: the same query, the same vector; never a model. */
    private static final class QueryEmbedder implements Embedder {
        @Override
        public List<float[]> embedAll(List<String> texts) {
            List<float[]> out = new ArrayList<>();
            for (String t : texts) {
                out.add(vector(new Random(t.hashCode())));
            }
            return out;
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
