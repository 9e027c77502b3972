package dev.memfas.core;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Memory;
import dev.memfas.spi.Embeddings;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.VectorSpace;
import dev.memfas.testkit.WordEmbedder;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Many tenants in one store, for the stores' integration tests: {@link #fill} writes N namespaces of a few small
 * memories that share their words (and one large namespace), and {@link #serve}, run in a JVM whose heap is too small
 * to hold every namespace's indexes, serves each namespace once through a curator whose index limits are small,
 * checking that each turn shows its own namespace's memories only, then reports the heap in use.
 */
public final class ManyTenantsRun {
    /** Memories per small namespace. */
    public static final int PER_NAMESPACE = 5;
    /** The memories of the one large namespace, {@code big}. */
    public static final int BIG = 20_000;
    private static final String[] WORDS = {"deploy", "note", "project", "meeting", "release", "kafka", "budget",
        "review", "design", "customer", "invoice", "schedule", "backup", "server", "team", "travel"};

    private ManyTenantsRun() {}

    /** Writes {@code namespaces} namespaces {@code t<n>} of {@link #PER_NAMESPACE} memories, and {@code big}. */
    public static void fill(MemoryStore store, int namespaces) {
        WordEmbedder embedder = new WordEmbedder("words-32", 32);
        VectorSpace space = new VectorSpace(embedder.modelId(), embedder.dimension());
        List<Memory> batch = new ArrayList<>();
        for (int ns = 0; ns <= namespaces; ns++) {
            String namespace = ns < namespaces ? "t" + ns : "big";
            int count = ns < namespaces ? PER_NAMESPACE : BIG;
            for (int i = 0; i < count; i++) {
                String text = WORDS[(ns + i) % WORDS.length] + " " + WORDS[(ns * 7 + i * 3) % WORDS.length] + " for "
                        + namespace + " item " + i;
                batch.add(Memory.builder(text).namespace(namespace).id(namespace + "-" + i)
                        .createdAt(Instant.parse("2026-01-01T00:00:00Z").plusSeconds(i)).build());
                if (batch.size() == 2_000) {
                    write(store, batch, embedder, space);
                }
            }
        }
        write(store, batch, embedder, space);
    }

    private static void write(MemoryStore store, List<Memory> batch, WordEmbedder embedder, VectorSpace space) {
        if (!batch.isEmpty()) {
            store.upsertAll(batch, Embeddings.of(space, embedder.embedAll(batch.stream().map(Memory::text).toList())));
            batch.clear();
        }
    }

    /**
     * Serves the big namespace, then every small one once, with the curator's vector indexes and the store's text
     * indexes each held within {@code limitBytes} (the store was opened with that limit); throws if a turn shows
     * another namespace's memory or finds none of its own. Returns the heap in use, after a full collection, once the
     * big namespace was served and once every namespace was, in bytes.
     */
    public static long[] serve(MemoryStore store, int namespaces, long limitBytes) {
        try (ContextCurator curator = Memfas.newBuilder().store(store).embedder(new WordEmbedder("words-32", 32))
                .indexMemoryLimit(limitBytes).build()) {
            check(curator.getContext(request("deploy note for big", "big")), "big");
            System.gc();
            long afterBig = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            for (int ns = 0; ns < namespaces; ns++) {
                String namespace = "t" + ns;
                check(curator.getContext(request(WORDS[ns % WORDS.length] + " for " + namespace, namespace)),
                        namespace);
            }
            System.gc();
            return new long[] {afterBig, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed()};
        }
    }

    /**
     * Runs {@code main} (a class whose {@code main} serves the store and prints {@code heap <after big> <after all>})
     * with {@code argument} in a JVM of {@code heapMb} MB; returns the heap it printed.
     *
     * @throws AssertionError if the child fails, with its output
     */
    public static long[] inChild(Class<?> main, String argument, int heapMb) throws IOException, InterruptedException {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heapMb + "m", "-cp", System.getProperty("java.class.path"), main.getName(), argument)
                .redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!child.waitFor(10, TimeUnit.MINUTES) || child.exitValue() != 0) {
            child.destroyForcibly();
            throw new AssertionError("the child serving the namespaces failed:\n" + out);
        }
        String[] heap = out.lines().filter(l -> l.startsWith("heap ")).findFirst()
                .orElseThrow(() -> new AssertionError("no heap reported:\n" + out)).split(" ");
        return new long[] {Long.parseLong(heap[1]), Long.parseLong(heap[2])};
    }

    private static ContextRequest request(String query, String namespace) {
        return ContextRequest.builder(query).namespace(namespace).tokenBudget(400).build();
    }

    private static void check(ContextResponse response, String namespace) {
        if (response.memoryIds().isEmpty()) {
            throw new AssertionError("no memory of " + namespace + " for its own query");
        }
        for (String id : response.memoryIds()) {
            if (!id.startsWith(namespace + "-")) {
                throw new AssertionError("a turn in " + namespace + " showed " + id);
            }
        }
    }
}
