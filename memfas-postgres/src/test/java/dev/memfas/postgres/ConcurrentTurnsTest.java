package dev.memfas.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Eight threads turning and counting the same memories at once, on a real PostgreSQL: no transaction loses a
 * deadlock, since every statement that locks memory rows locks them in the order of their ids.
 */
final class ConcurrentTurnsTest {
    private static final Instant T0 = Instant.parse("2026-11-24T09:00:00Z");
    private static final int THREADS = 8;
    private static final int MEMORIES = 60;

    @Test
    void eightThreadsCountingTheSameMemories_inEveryOrder_loseNoDeadlock() throws Exception {
        try (PostgresMemoryStore store = PostgresMemoryStore.open(EmbeddedPostgres.shared().newSchemaUrl());
                ContextCurator curator = Memfas.newBuilder().store(store).build()) {
            List<Memory> memories = new ArrayList<>();
            for (int i = 0; i < MEMORIES; i++) {
                memories.add(Memory.builder("Deploy note " + i + ": the canary runs for " + i + " minutes.")
                        .id(String.format("m%02d", i)).createdAt(T0).build());
            }
            curator.rememberAll(memories);
            List<String> ids = memories.stream().map(Memory::id).toList();
            ExecutorService threads = Executors.newFixedThreadPool(THREADS);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                Random random = new Random(t);
                int thread = t;
                done.add(threads.submit(() -> {
                    for (int round = 0; round < 150; round++) {
                        List<String> some = new ArrayList<>(ids);
                        Collections.shuffle(some, random);
                        some = some.subList(0, 10 + random.nextInt(MEMORIES - 10));
                        switch (round % 3) {
                            case 0 -> store.recordAccess(Memory.DEFAULT_NAMESPACE, some, T0.plusSeconds(round));
                            case 1 -> store.recordEvidence(Memory.DEFAULT_NAMESPACE, some);
                            default -> curator.getContext(ContextRequest.builder("how long does the canary run?")
                                    .sessionId("s" + thread).tokenBudget(4_000).fillBudget(true).build());
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(300, TimeUnit.SECONDS);
            }
            threads.shutdown();

            assertThat(store.conflictsLost()).as("transactions aborted for a deadlock and run again").isZero();
            long accesses = 0;
            for (String id : ids) {
                accesses += store.get(Memory.DEFAULT_NAMESPACE, id).orElseThrow().accessCount();
            }
            assertThat(accesses).as("every access counted").isPositive();
        }
    }
}
