package dev.memfas.core.turn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.ContextItem;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.DroppedMemory;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import dev.memfas.core.MutableClock;
import dev.memfas.core.PlacedEmbedder;
import dev.memfas.core.envelope.BudgetFiller;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where a turn's relevance ends: the budget as a ceiling, and the request that fills it. */
final class RelevanceEndTest {
    private static final Instant NOW = Instant.parse("2026-11-01T12:00:00Z");
    private static final String DEPLOY = "deploy on tuesdays after the migrations";
    private static final String CANARY = "deploy canary first then the rest";
    private static final String FREEZE = "no deploy during the freeze in december";
    private static final String COFFEE = "the coffee machine is descaled on fridays";
    /**
     * Three memories on deploys and one far from the query ("deploy"); the placed embedder's relevance floor is 0.5, so
     * a memory at 0.715 or above is closer to the best (0.93) than to the floor.
     */
    private static final Map<String, Double> COSINES = Map.of(DEPLOY, 0.93, CANARY, 0.92, FREEZE, 0.75, COFFEE, 0.55);

    private static Memory memory(String id, String text) {
        return Memory.builder(text).id(id).createdAt(NOW.minus(Duration.ofDays(1))).build();
    }

    private static ContextCurator curator(Memfas.Builder builder) {
        ContextCurator curator = builder.embedder(new PlacedEmbedder(COSINES, Double.NaN))
                .clock(new MutableClock(NOW)).build();
        curator.rememberAll(List.of(memory("deploy", DEPLOY), memory("canary", CANARY), memory("freeze", FREEZE),
                memory("coffee", COFFEE)));
        return curator;
    }

    private static ContextRequest.Builder ask() {
        return ContextRequest.builder("deploy").sessionId("s").tokenBudget(1000).explain(true);
    }

    @Test
    void aMemoryFarUnderTheBestScore_isLeftOut_withTheBudgetFree_andTheExplanationSaysWhy() {
        try (ContextCurator curator = curator(Memfas.newBuilder())) {
            ContextResponse r = curator.getContext(ask().build());

            assertThat(r.memoryIds()).containsExactlyInAnyOrder("deploy", "canary", "freeze");
            assertThat(r.tokensUsed()).isLessThan(100);
            assertThat(r.dropped()).singleElement().satisfies(d -> {
                assertThat(d.memoryId()).isEqualTo("coffee");
                assertThat(d.reason()).isEqualTo(DroppedMemory.Reason.BELOW_RELATIVE_FLOOR);
                assertThat(d.score()).isLessThan(BudgetFiller.RELATIVE_FLOOR * r.items().get(0).score());
            });
        }
    }

    @Test
    void aMemoryCloserToTheBestThanToTheFloor_staysIn_howeverLowItsScaledScore() {
        // The freeze note (0.75) is 0.18 under the best, yet closer to it than to the floor: near it in meaning, it
        // stays in under a relative floor of 0.99 that its scaled score does not reach. The coffee note does not.
        try (ContextCurator curator = curator(Memfas.newBuilder().relativeFloor(0.99))) {
            ContextResponse r = curator.getContext(ask().build());

            assertThat(r.memoryIds()).containsExactlyInAnyOrder("deploy", "canary", "freeze");
            assertThat(r.items()).extracting(ContextItem::score)
                    .anyMatch(score -> score < 0.99 * r.items().get(0).score());
        }
    }

    @Test
    void aRequestThatFillsItsBudget_getsEveryMemoryDownToTheMinimumScore() {
        try (ContextCurator curator = curator(Memfas.newBuilder())) {
            ContextResponse filled = curator.getContext(ask().fillBudget(true).build());

            assertThat(filled.memoryIds()).containsExactlyInAnyOrder("deploy", "canary", "freeze", "coffee");
            assertThat(filled.dropped()).isEmpty();
        }
        try (ContextCurator always = curator(Memfas.newBuilder().relativeFloor(0))) {
            assertThat(always.getContext(ask().build()).memoryIds()).hasSize(4);
        }
    }

    @Test
    void pinnedMemories_areNotHeldToIt() {
        try (ContextCurator curator = curator(Memfas.newBuilder())) {
            curator.remember(Memory.builder(COFFEE + " and pinned").id("pinned").pinned(true).createdAt(NOW).build());

            assertThat(curator.getContext(ask().build()).memoryIds()).contains("pinned").doesNotContain("coffee");
        }
    }

    @Test
    void aRelativeFloorOutsideZeroToOne_isRefused() {
        for (double bad : new double[] {-0.1, 1.5, Double.NaN}) {
            assertThatThrownBy(() -> Memfas.newBuilder().relativeFloor(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("relative floor must be in [0, 1]").hasMessageContaining(String.valueOf(bad));
        }
    }
}
