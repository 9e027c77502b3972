package dev.memfas.sqlite;

import dev.memfas.testkit.WordEmbedder;
import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextResponse;
import dev.memfas.Memory;
import dev.memfas.spi.StoredMemory;
import dev.memfas.core.Memfas;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eight threads curating contexts while two add and forget memories, for 20 seconds, against one SQLite file: no
 * exceptions, and the store ends holding exactly what the writers were told was stored.
 */
final class ConcurrentUseIT {
    private static final long RUN_NANOS = TimeUnit.SECONDS.toNanos(20);
    private static final String[] WORDS = {"kafka", "grafana", "deploy", "river", "pasta", "lag", "retention"};

    @TempDir
    Path dir;

    @Test
    void eightReadersTwoWriters_twentySeconds_noErrorsNoLostOrDuplicatedMemories() throws Exception {
        Path file = dir.resolve("concurrent.db");
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        java.util.Map<String, String> texts = new ConcurrentHashMap<>();
        AtomicLong turns = new AtomicLong();
        AtomicLong writes = new AtomicLong();
        try (SqliteMemoryStore store = SqliteMemoryStore.open(file);
                ContextCurator curator = Memfas.newBuilder().store(store).embedder(new WordEmbedder("words-64", 64))
                        .build()) {
            ExecutorService pool = Executors.newFixedThreadPool(10);
            CountDownLatch start = new CountDownLatch(1);
            long end = System.nanoTime() + RUN_NANOS;
            List<Future<?>> futures = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int writer = w;
                futures.add(pool.submit(() -> {
                    start.await();
                    Random random = new Random(writer);
                    for (int i = 0; System.nanoTime() < end; i++) {
                        String id = "w" + writer + "-" + random.nextInt(2000);
                        if (random.nextInt(4) == 0) {
                            curator.forget(Memory.DEFAULT_NAMESPACE, id);
                            acknowledged.remove(id);
                            texts.remove(id);
                        } else {
                            String text = WORDS[random.nextInt(WORDS.length)] + " note " + i + " by writer " + writer;
                            curator.remember(Memory.builder(text).id(id).createdAt(Instant.now()).build());
                            acknowledged.add(id);
                            texts.put(id, text);
                        }
                        writes.incrementAndGet();
                    }
                    return null;
                }));
            }
            for (int r = 0; r < 8; r++) {
                int reader = r;
                futures.add(pool.submit(() -> {
                    start.await();
                    Random random = new Random(100 + reader);
                    while (System.nanoTime() < end) {
                        ContextResponse response = curator.getContext(
                                WORDS[random.nextInt(WORDS.length)] + " note", "reader-" + reader);
                        assertThat(response.tokensUsed()).isLessThanOrEqualTo(response.budget());
                        assertThat(new HashSet<>(response.memoryIds())).hasSameSizeAs(response.memoryIds());
                        turns.incrementAndGet();
                    }
                    return null;
                }));
            }
            start.countDown();
            pool.shutdown();
            assertThat(pool.awaitTermination(RUN_NANOS + TimeUnit.SECONDS.toNanos(60), TimeUnit.NANOSECONDS))
                    .isTrue();
            for (Future<?> f : futures) {
                f.get();
            }

            assertThat(turns.get()).isPositive();
            assertThat(writes.get()).isPositive();
            assertThat(store.count("default")).isEqualTo(acknowledged.size());
            List<StoredMemory> all = store.getAll("default", acknowledged);
            assertThat(all).hasSize(acknowledged.size());
            Set<String> vectorIds = new HashSet<>();
            store.forEachVector("default", (id, v) -> assertThat(vectorIds.add(id)).isTrue());
            assertThat(vectorIds).isEqualTo(acknowledged);
            assertThat(curator.stats().vectors()).isEqualTo(acknowledged.size());
            assertThat(store.integrityCheck()).isEqualTo("ok");
            for (String word : WORDS) {
                Set<String> expected = new HashSet<>();
                texts.forEach((id, text) -> {
                    if (text.startsWith(word + " ")) {
                        expected.add(id);
                    }
                });
                Set<String> found = new HashSet<>();
                store.searchLexical("default", word, 100_000).forEach(h -> found.add(h.memoryId()));
                assertThat(found).as(word).isEqualTo(expected);
            }
            System.out.printf("ConcurrentUseIT: %d turns, %d writes in 20 s%n", turns.get(), writes.get());
        }
    }
}
