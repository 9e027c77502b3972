package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.core.store.InMemoryMemoryStore;
import dev.memfas.spi.Embedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class WarmUpTest {
    @TempDir
    Path dir;

    /** Counts its calls; every text gets the same unit vector. */
    private static final class CountingEmbedder implements Embedder {
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public List<float[]> embedAll(List<String> texts) {
            calls.incrementAndGet();
            List<float[]> out = new ArrayList<>();
            texts.forEach(t -> out.add(new float[] {1, 0, 0}));
            return out;
        }

        @Override
        public int dimension() {
            return 3;
        }

        @Override
        public String modelId() {
            return "counting";
        }
    }

    @Test
    void warmUp_callsTheModelAndSearchesEveryNamespace_recordingNothing() throws Exception {
        InMemoryMemoryStore store = new InMemoryMemoryStore();
        dev.memfas.spi.VectorSpace space = new dev.memfas.spi.VectorSpace("counting", 3);
        store.upsertAll(List.of(Memory.builder("deploy on tuesdays").id("a").createdAt(Instant.EPOCH).build(),
                        Memory.builder("team notes").id("b").namespace("team").createdAt(Instant.EPOCH).build()),
                dev.memfas.spi.Embeddings.of(space, List.of(new float[] {1, 0, 0}, new float[] {0, 1, 0})));
        CountingEmbedder embedder = new CountingEmbedder();
        Path telemetry = dir.resolve("t.jsonl");

        try (ContextCurator warm = Memfas.newBuilder().store(store).embedder(embedder).telemetry(telemetry)
                .warmUp(true).build()) {
            assertThat(embedder.calls.get()).as("one search per namespace").isEqualTo(2);
            assertThat(warm.stats().turns()).isZero();
            assertThat(store.get("default", "a").orElseThrow().accessCount()).isZero();
            assertThat(Files.exists(telemetry) ? Files.readAllLines(telemetry) : List.of()).isEmpty();
        }
    }

    @Test
    void withoutWarmUp_buildCallsNoModel() {
        CountingEmbedder embedder = new CountingEmbedder();
        try (ContextCurator curator = Memfas.newBuilder().embedder(embedder).build()) {
            assertThat(embedder.calls.get()).isZero();
            assertThat(curator.stats().turns()).isZero();
        }
    }
}
