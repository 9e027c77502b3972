package dev.memfas.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.memfas.ContextCurator;
import dev.memfas.ContextItem;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import dev.memfas.core.MutableClock;
import dev.memfas.core.PlacedEmbedder;
import dev.memfas.core.store.InMemoryMemoryStore;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class LengthDiscountTest {
    private static final Instant NOW = Instant.parse("2026-11-01T12:00:00Z");
    private static final String QUERY = "how long are events kept";
    private static final String LONG = "Retention notes. " + "The cluster holds each topic's records for a while. "
            .repeat(30);

    @Test
    void aParagraphOrLess_isNotDiscounted_andLongerItemsLoseSlowly() {
        assertThat(LengthDiscount.factor(40)).isEqualTo(1.0);
        assertThat(LengthDiscount.factor(LengthDiscount.SHORT_TOKENS)).isEqualTo(1.0);
        assertThat(LengthDiscount.factor(200)).isCloseTo(0.812, within(0.001));
        assertThat(LengthDiscount.factor(400)).isLessThan(LengthDiscount.factor(200)).isGreaterThan(0.6);
    }

    @Test
    void aMemoryCutToHalfOfItselfOrLess_countsAsTwiceItsItem_andAtLeastTwiceTheShortLength() {
        assertThat(LengthDiscount.takes(500, 102)).isEqualTo(204);
        assertThat(LengthDiscount.takes(204, 102)).isEqualTo(204);
        assertThat(LengthDiscount.takes(500, 204)).isEqualTo(408);
        assertThat(LengthDiscount.takes(1_000, 400)).isEqualTo(800);
        // In a budget whose cap is under the short length, a passage still counts as two paragraphs.
        assertThat(LengthDiscount.takes(500, 60)).isEqualTo(LengthDiscount.CUT_TO_HALF_TOKENS);
        // Cut by a little, or not at all, a memory takes what its item does.
        assertThat(LengthDiscount.takes(150, 102)).isEqualTo(102);
        assertThat(LengthDiscount.takes(60, 102)).isEqualTo(60);
        assertThat(LengthDiscount.takes(700, 400)).isEqualTo(400);
    }

    /**
     * At 1,024 tokens the long memory's item is cut to the cap of 204 tokens; at 512 to 102, about a paragraph, where
     * it ranked first for its 0.01 more until a memory cut to a passage of itself counted as twice its item.
     */
    @ParameterizedTest
    @ValueSource(ints = {512, 1024})
    void aLongMemory_ranksBelowShortOnesThatBearOnTheQueryAsMuch(int budget) {
        ContextResponse r = curate(Map.of(LONG, 0.80, "Seven days, then deleted.", 0.79,
                "Compaction saves the last record per key.", 0.78), budget);

        List<String> order = r.items().stream().map(ContextItem::text).toList();
        assertThat(order).hasSize(3);
        assertThat(order.get(0)).isEqualTo("Seven days, then deleted.");
        assertThat(order.get(1)).isEqualTo("Compaction saves the last record per key.");
        ContextItem longItem = r.items().get(2);
        assertThat(longItem.truncated()).isTrue();
        assertThat(longItem.text()).startsWith("Retention notes.");
    }

    @Test
    void aLongMemoryThatBearsOnTheQueryMore_stillRanksFirst() {
        ContextResponse r = curate(Map.of(LONG, 0.80, "Seven days, then deleted.", 0.62,
                "Compaction saves the last record per key.", 0.60), 1024);

        assertThat(r.items().get(0).text()).startsWith("Retention notes.");
        assertThat(r.items()).hasSize(3);
    }

    /**
     * A turn of {@code budget} tokens over the given memories, each at its cosine with the query, among four far from
     * it; none shares a word with the query, so meaning alone ranks them.
     */
    private static ContextResponse curate(Map<String, Double> memories, int budget) {
        Map<String, Double> cosines = new LinkedHashMap<>(memories);
        List<String> far = List.of("The office opens at nine.", "Lunch is served at noon.",
                "The printer is on the second floor.", "Parking is free on weekends.");
        far.forEach(t -> cosines.put(t, 0.2));
        try (ContextCurator curator = Memfas.newBuilder().store(new InMemoryMemoryStore())
                .embedder(new PlacedEmbedder(cosines, Double.NaN)).clock(new MutableClock(NOW)).build()) {
            cosines.keySet().forEach(t -> curator.remember(Memory.builder(t)
                    .createdAt(NOW.minus(Duration.ofDays(1))).build()));
            return curator.getContext(ContextRequest.builder(QUERY).tokenBudget(budget).build());
        }
    }
}
