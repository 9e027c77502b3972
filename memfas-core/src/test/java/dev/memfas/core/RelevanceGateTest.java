package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.DroppedMemory;
import dev.memfas.Embedder;
import dev.memfas.Memory;
import dev.memfas.Trigger;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A turn with nothing relevant to retrieve gets only what triggers and pinning put in its context. */
final class RelevanceGateTest {
    private static final Instant NOW = Instant.parse("2026-11-01T12:00:00Z");

    /** The hashing embedder with a floor: texts sharing no term score about 0, one shared term well above 0.3. */
    private record CalibratedEmbedder(Embedder terms, double floor) implements Embedder {
        @Override
        public List<float[]> embedAll(List<String> texts) {
            return terms.embedAll(texts);
        }

        @Override
        public int dimension() {
            return terms.dimension();
        }

        @Override
        public String modelId() {
            return terms.modelId();
        }

        @Override
        public OptionalDouble relevanceFloor() {
            return OptionalDouble.of(floor);
        }
    }

    private ContextCurator curator;

    @AfterEach
    void close() {
        if (curator != null) {
            curator.close();
        }
    }

    private ContextCurator curator(Memfas.Builder builder) {
        curator = builder.clock(new MutableClock(NOW)).build();
        curator.rememberAll(List.of(memory("k1", "kafka retention is seven days"),
                memory("k2", "kafka has twelve partitions"), memory("l", "lunch is served at noon")));
        return curator;
    }

    private static Memory memory(String id, String text) {
        return Memory.builder(text).id(id).createdAt(NOW.minus(Duration.ofDays(1))).build();
    }

    private static Embedder embedder(double floor) {
        return new CalibratedEmbedder(new HashingEmbedder(256), floor);
    }

    @Test
    void aQueryNothingMatches_getsAnEmptyContext_andTheExplanationSaysWhy() {
        curator(Memfas.newBuilder().embedder(embedder(0.3)));

        ContextResponse r = curator.getContext(ContextRequest.builder("capital of france").sessionId("s")
                .explain(true).build());

        assertThat(r.context()).isEmpty();
        assertThat(r.tokensUsed()).isZero();
        assertThat(r.dropped()).isNotEmpty().allSatisfy(d -> assertThat(d.reason())
                .isEqualTo(DroppedMemory.Reason.BELOW_RELEVANCE_FLOOR));
    }

    @Test
    void aQueryWithOneMatch_isCuratedAsBefore_weakerCandidatesIncluded() {
        curator(Memfas.newBuilder().embedder(embedder(0.3)));

        ContextResponse r = curator.getContext("kafka retention", "s");

        assertThat(r.memoryIds()).startsWith("k1").contains("k2", "l");
    }

    @Test
    void pinnedAndTriggeredMemories_comeWhateverTheQuery() {
        curator(Memfas.newBuilder().embedder(embedder(0.3)));
        curator.remember(Memory.builder("Always answer in British English.").id("p").pinned(true).createdAt(NOW)
                .build());
        curator.addTrigger(Trigger.of("france", "Metric units.", "l"));

        ContextResponse r = curator.getContext("capital of france", "s");

        assertThat(r.memoryIds()).containsExactlyInAnyOrder("l", "p");
        assertThat(r.triggersMatched()).containsExactly("france");
    }

    @Test
    void theBuildersFloor_overridesTheEmbeddersOne_andMinusOneTurnsTheCheckOff() {
        curator(Memfas.newBuilder().embedder(embedder(0.3)).relevanceFloor(-1));

        assertThat(curator.getContext("capital of france", "s").memoryIds()).hasSize(3);
    }

    @Test
    void withoutAnEmbedder_nothingIsGated() {
        curator(Memfas.newBuilder().relevanceFloor(0.99));

        assertThat(curator.getContext("kafka", "s").memoryIds()).contains("k1", "k2");
    }

    @Test
    void badFloorsAreRejectedWithTheirValue() {
        assertThatThrownBy(() -> Memfas.newBuilder().relevanceFloor(1.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1.5");
        assertThatThrownBy(() -> Memfas.newBuilder().relevanceFloor(Double.NaN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NaN");
        assertThatThrownBy(() -> Memfas.newBuilder().embedder(embedder(7)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("7.0")
                .hasMessageContaining("hashing-256");
    }
}
