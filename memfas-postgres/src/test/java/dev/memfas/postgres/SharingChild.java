package dev.memfas.postgres;

import dev.memfas.testkit.WordEmbedder;
import dev.memfas.ContextCurator;
import dev.memfas.MemfasException;
import dev.memfas.Memory;
import dev.memfas.RecallHit;
import dev.memfas.RecallRequest;
import dev.memfas.core.Memfas;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * One of the processes of {@link SharedDatabaseIT}, run in a JVM of its own.
 *
 * <p>{@code share URL NAME SECONDS DIR}: for SECONDS, remembers batches of memories and, after each commit, appends
 * their ids to {@code DIR/NAME.acked}; before each turn reads the other processes' {@code .acked} files and checks that
 * its next turn finds some of the memories they acknowledged (by meaning: in its own vector index, caught up from the
 * change log), and curates a context. A write that fails (the server restarting) is tried again with the same ids.
 * When done, waits for the others' {@code .done} files, then prints what it counted and what it sees.
 *
 * <p>{@code batches URL FIRST}: writes batches of 20 memories {@code b<batch>-<i>} from batch FIRST on, printing
 * {@code committed <batch>} after each commit, until killed.
 */
public final class SharingChild {
    static final int BATCH = 5;

    public static void main(String[] args) throws Exception {
        if (args[0].equals("batches")) {
            batches(args[1], Integer.parseInt(args[2]));
        } else {
            share(args[1], args[2], Integer.parseInt(args[3]), Path.of(args[4]));
        }
    }

    /** The text of a memory, from its id alone, so that any process can ask for it. */
    static String textOf(String id) {
        Random r = new Random(id.hashCode());
        String[] words = {"kafka", "retention", "deploy", "ledger", "billing", "cache", "schema", "release"};
        return "memo " + id + " " + words[r.nextInt(words.length)] + " " + words[r.nextInt(words.length)];
    }

    private static void share(String url, String name, int seconds, Path dir) throws Exception {
        Random random = new Random(name.hashCode());
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        int writes = 0;
        int checks = 0;
        int turns = 0;
        List<String> violations = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        Map<Path, Integer> readUpTo = new HashMap<>();
        List<String> othersAcked = new ArrayList<>();
        try (ContextCurator curator = Memfas.newBuilder().store(PostgresMemoryStore.open(url))
                .embedder(new WordEmbedder("words-256", 256)).build();
                Writer acked = Files.newBufferedWriter(dir.resolve(name + ".acked"), StandardCharsets.UTF_8)) {
            int next = 0;
            while (System.nanoTime() < deadline) {
                List<Memory> batch = new ArrayList<>();
                for (int i = 0; i < BATCH; i++) {
                    String id = name + "-" + next++;
                    batch.add(Memory.builder(textOf(id)).id(id).source("process:" + name).build());
                }
                while (true) {
                    try {
                        curator.rememberAll(batch);
                        break;
                    } catch (MemfasException e) {
                        errors.add(firstLine(e));
                        Thread.sleep(100);
                        if (System.nanoTime() > deadline + 60_000_000_000L) {
                            throw e;
                        }
                    }
                }
                for (Memory m : batch) {
                    acked.write(m.id() + "\n");
                }
                acked.flush();
                writes += batch.size();

                // What the others acknowledged before this turn starts.
                readAcked(dir, name, readUpTo, othersAcked);
                try {
                    for (int k = 0; k < 2 && !othersAcked.isEmpty(); k++) {
                        String id = othersAcked.get(othersAcked.size() - 1 - random.nextInt(
                                Math.min(50, othersAcked.size())));
                        List<RecallHit> hits = curator.recall(RecallRequest.builder(textOf(id)).limit(3).build());
                        boolean found = hits.stream().anyMatch(h -> h.memory().id().equals(id)
                                && h.factors().semantic() > 0);
                        checks++;
                        if (!found) {
                            violations.add(id);
                        }
                    }
                    curator.getContext("what about " + textOf(name + "-" + random.nextInt(next)), name);
                    turns++;
                } catch (MemfasException e) {
                    errors.add(firstLine(e));
                    Thread.sleep(100);
                }
            }
            Files.writeString(dir.resolve(name + ".done"), "done");
            long waitUntil = System.nanoTime() + 120_000_000_000L;
            while (countDone(dir) < Integer.parseInt(System.getProperty("processes", "4"))
                    && System.nanoTime() < waitUntil) {
                Thread.sleep(50);
            }
            curator.recall(RecallRequest.builder("memo").limit(1).build()); // catch up with the last writes
            System.out.println("result writes=" + writes + " checks=" + checks + " turns=" + turns
                    + " violations=" + violations.size() + " errors=" + errors.size()
                    + " memories=" + curator.stats().memories() + " vectors=" + curator.stats().vectors());
            violations.forEach(v -> System.out.println("violation " + v));
            errors.forEach(e -> System.out.println("error " + e));
        }
    }

    private static void readAcked(Path dir, String me, Map<Path, Integer> readUpTo, List<String> into)
            throws IOException {
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".acked")
                    && !p.getFileName().toString().equals(me + ".acked")).toList()) {
                String content = Files.readString(f, StandardCharsets.UTF_8);
                int from = readUpTo.getOrDefault(f, 0);
                int end = content.lastIndexOf('\n') + 1; // a line still being written is left for later
                if (end > from) {
                    for (String id : content.substring(from, end).split("\n")) {
                        into.add(id);
                    }
                    readUpTo.put(f, end);
                }
            }
        }
    }

    private static long countDone(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".done")).count();
        }
    }

    private static String firstLine(Exception e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return Instant.now() + " " + (nl < 0 ? m : m.substring(0, nl));
    }

    private static void batches(String url, int first) {
        try (PostgresMemoryStore store = PostgresMemoryStore.open(url)) {
            for (int batch = first; ; batch++) {
                List<Memory> memories = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    memories.add(Memory.builder("batch " + batch + " item " + i + " " + "x".repeat(200))
                            .id("b" + batch + "-" + i).createdAt(Instant.EPOCH).build());
                }
                store.upsertAll(memories);
                System.out.println("committed " + batch);
                System.out.flush();
            }
        }
    }

    private SharingChild() {}
}
