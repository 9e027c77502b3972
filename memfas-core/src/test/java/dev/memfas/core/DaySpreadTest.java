package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Memory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One source's day past its share of the budget: its further matches rank lower, another day's match gets in. */
final class DaySpreadTest {
    private static final Instant NOW = Instant.parse("2026-11-24T08:30:00Z");
    private static final Instant FIRST_DAY = Instant.parse("2026-11-20T18:00:00Z");
    private static final Instant LATER_DAY = Instant.parse("2026-11-21T09:00:00Z");
    private static final String QUERY = "when does the billing export run";
    /** About 60 tokens, none of them a word of the query: the cosines alone rank. */
    private static final String FILLER = " We went through the whole schedule, which reports it feeds, who reads them"
            + " on Monday morning, and how the finance team checks the totals before the month closes, then the"
            + " dashboards and the alerts that page someone when it is late.";

    /**
     * Eight replies of one conversation, each a better match than the one statement of a later conversation (cosine
     * 0.90 down to 0.83 against 0.80), every one about 70 tokens as an item, and a note far from the query.
     */
    private static Map<Memory, Double> conversations(String firstSource) {
        Map<Memory, Double> memories = new LinkedHashMap<>();
        for (int i = 0; i < 8; i++) {
            memories.put(Memory.builder("Reply " + i + ": the nightly job." + FILLER).id("first-" + i)
                    .source(firstSource).createdAt(FIRST_DAY.plusSeconds(60L * i)).build(), 0.90 - 0.01 * i);
        }
        memories.put(Memory.builder("Later: the nightly job moved to Sundays." + FILLER).id("later").source("chat-2")
                .createdAt(LATER_DAY).build(), 0.80);
        // Far from the query: where the scale of cosines starts.
        memories.put(Memory.builder("Lunch is at noon.").id("lunch").source("notes").createdAt(FIRST_DAY).build(), 0.2);
        return memories;
    }

    /** The context of a 500-token budget: room for seven of the nine replies and statements. */
    private static ContextResponse ask(Memfas.Builder builder, Map<Memory, Double> placed) {
        Map<String, Double> cosines = new LinkedHashMap<>();
        placed.forEach((m, cosine) -> cosines.put(m.text(), cosine));
        try (ContextCurator curator = builder.embedder(new PlacedEmbedder(cosines, Double.NaN))
                .clock(new MutableClock(NOW)).build()) {
            curator.rememberAll(new ArrayList<>(placed.keySet()));
            return curator.getContext(ContextRequest.builder(QUERY).tokenBudget(500).build());
        }
    }

    @Test
    void aDayPastHalfTheBudget_letsAnotherDaysMatchIn() {
        Map<Memory, Double> memories = conversations("chat-1");

        ContextResponse spread = ask(Memfas.newBuilder().neighborRadius(0), memories);
        ContextResponse unspread = ask(Memfas.newBuilder().neighborRadius(0).dayShare(1), memories);

        // Without the spread the first conversation's replies, each a better match, fill the budget.
        assertThat(unspread.memoryIds()).hasSizeGreaterThanOrEqualTo(5).doesNotContain("later");
        // With it, the first day's best replies are still in, and the later conversation's statement is too.
        assertThat(spread.memoryIds()).contains("later", "first-0", "first-1", "first-2");
        assertThat(spread.tokensUsed()).isLessThanOrEqualTo(500);
    }

    @Test
    void oneDayAlone_isRankedAsItScores() {
        // A conversation's question, then its eight replies, then a closing note: one source, one day, stored in
        // order, so the question is the best reply's neighbor. Its own cosine is far below the replies'.
        Map<Memory, Double> memories = new LinkedHashMap<>();
        memories.put(Memory.builder("Question: and the export?" + FILLER).id("question").source("chat-1")
                .createdAt(FIRST_DAY.minusSeconds(60)).build(), 0.35);
        conversations("chat-1").forEach((m, cosine) -> {
            if (m.id().startsWith("first-")) {
                memories.put(m, cosine);
            }
        });
        memories.put(Memory.builder("Lunch is at noon.").id("lunch").source("chat-1")
                .createdAt(FIRST_DAY.plusSeconds(3_600)).build(), 0.2);

        ContextResponse spread = ask(Memfas.newBuilder().neighborRadius(1), memories);
        ContextResponse unspread = ask(Memfas.newBuilder().neighborRadius(1).dayShare(1), memories);

        // There is no other day to make room for: lowering the day's later replies would only have let the
        // question, which keeps the score it inherits from its reply, take a better reply's place.
        assertThat(unspread.memoryIds()).contains("first-6").doesNotContain("question");
        assertThat(spread.memoryIds()).isEqualTo(unspread.memoryIds());
    }

    @Test
    void memoriesWithoutASource_areNotGroupedByDay() {
        Map<Memory, Double> memories = conversations(Memory.DEFAULT_SOURCE);

        ContextResponse spread = ask(Memfas.newBuilder().neighborRadius(0), memories);
        ContextResponse unspread = ask(Memfas.newBuilder().neighborRadius(0).dayShare(1), memories);

        // Nothing says facts stored through the API on one day were written together: ranked as they score.
        assertThat(spread.memoryIds()).isEqualTo(unspread.memoryIds()).doesNotContain("later");
    }

    @Test
    void theShareIsChecked() {
        assertThatThrownBy(() -> Memfas.newBuilder().dayShare(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("day share must be in (0, 1]: 0.0");
        assertThatThrownBy(() -> Memfas.newBuilder().dayShare(1.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1.5");
        assertThatThrownBy(() -> Memfas.newBuilder().dayShare(Double.NaN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NaN");
    }
}
