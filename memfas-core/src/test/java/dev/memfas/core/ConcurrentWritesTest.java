package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextResponse;
import dev.memfas.Memory;
import dev.memfas.core.store.InMemoryMemoryStore;
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
import org.junit.jupiter.api.Test;

/** Turns running while other threads remember and forget: no errors, and the index ends in step with the store. */
final class ConcurrentWritesTest {
    private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");

    @Test
    void readersAndWriters_together_leaveIndexAndStoreConsistent() throws Exception {
        InMemoryMemoryStore store = new InMemoryMemoryStore();
        try (ContextCurator curator = Memfas.newBuilder().store(store).embedder(new HashingEmbedder(64)).build()) {
            ExecutorService pool = Executors.newFixedThreadPool(6);
            CountDownLatch start = new CountDownLatch(1);
            Set<String> acknowledged = ConcurrentHashMap.newKeySet();
            List<Future<?>> futures = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int writer = w;
                futures.add(pool.submit(() -> {
                    start.await();
                    Random random = new Random(writer);
                    for (int i = 0; i < 1500; i++) {
                        String id = "w" + writer + "-" + random.nextInt(300);
                        if (random.nextInt(3) == 0) {
                            curator.forget(Memory.DEFAULT_NAMESPACE, id);
                            acknowledged.remove(id);
                        } else {
                            curator.remember(Memory.builder("kafka note " + i + " from writer " + writer).id(id)
                                    .createdAt(T0).build());
                            acknowledged.add(id);
                        }
                    }
                    return null;
                }));
            }
            for (int r = 0; r < 4; r++) {
                int reader = r;
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < 400; i++) {
                        ContextResponse response = curator.getContext("kafka note " + i, "reader-" + reader);
                        assertThat(response.tokensUsed()).isLessThanOrEqualTo(response.budget());
                        assertThat(new HashSet<>(response.memoryIds())).hasSameSizeAs(response.memoryIds());
                    }
                    return null;
                }));
            }
            start.countDown();
            pool.shutdown();
            assertThat(pool.awaitTermination(120, TimeUnit.SECONDS)).isTrue();
            for (Future<?> f : futures) {
                f.get();
            }

            long stored = store.count("default");
            assertThat(stored).isEqualTo(acknowledged.size());
            assertThat(curator.stats().vectors()).isEqualTo(stored);
            List<String> vectorIds = new ArrayList<>();
            store.forEachVector("default", (id, v) -> vectorIds.add(id));
            assertThat(vectorIds).containsExactlyInAnyOrderElementsOf(acknowledged);
        }
    }
}
