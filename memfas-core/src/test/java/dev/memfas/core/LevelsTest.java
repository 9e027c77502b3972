package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.ContextItem;
import dev.memfas.ContextLevel;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.ContextTier;
import dev.memfas.DroppedMemory;
import dev.memfas.Memory;
import dev.memfas.core.text.JTokkitTokenizer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Levels and tiers: named sizes of one request, which change nothing for any other. */
final class LevelsTest {
    private static final Instant NOW = Instant.parse("2026-11-24T09:00:00Z");
    private final ContextCurator curator = Memfas.newBuilder().clock(new MutableClock(NOW)).build();

    @BeforeEach
    void memories() {
        List<Memory> all = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            all.add(Memory.builder("deploy note " + i + ": " + "the deploy pipeline runs the checks first. ".repeat(
                    1 + i % 3)).id("d" + i).createdAt(NOW.minusSeconds(3600L * i)).build());
        }
        curator.rememberAll(all);
    }

    @AfterEach
    void close() {
        curator.close();
    }

    private ContextResponse turn(ContextRequest.Builder request) {
        return curator.getContext(request.explain(true).build());
    }

    @Test
    void eachLevel_setsTheBudget_theMostItems_andTheMinimumScore() {
        for (ContextLevel level : ContextLevel.values()) {
            ContextResponse r = turn(ContextRequest.builder("deploy pipeline checks").sessionId("s").level(level));

            assertThat(r.budget()).as(level.label()).isEqualTo(level.tokens());
            assertThat(r.tokensUsed()).isLessThanOrEqualTo(level.tokens());
            assertThat(r.items()).as(level.label()).hasSizeLessThanOrEqualTo(level.maxItems()).isNotEmpty()
                    .allSatisfy(i -> assertThat(i.score()).isGreaterThanOrEqualTo(level.minScore()));
        }
        ContextResponse minimal = turn(ContextRequest.builder("deploy pipeline checks").sessionId("s")
                .level(ContextLevel.MINIMAL).tokenBudget(5000));
        assertThat(minimal.budget()).isEqualTo(5000);
        assertThat(minimal.items()).hasSize(5);
        assertThat(minimal.dropped()).extracting(DroppedMemory::reason).contains(DroppedMemory.Reason.OVER_ITEM_LIMIT)
                .doesNotContain(DroppedMemory.Reason.OVER_BUDGET);
    }

    @Test
    void aLevelOrATier_onOneRequest_changesNoOtherRequestOrSession() {
        ContextResponse lean = turn(ContextRequest.builder("deploy pipeline checks").sessionId("a")
                .level(ContextLevel.LEAN));
        ContextResponse sameSessionNext = turn(ContextRequest.builder("deploy pipeline checks").sessionId("a"));
        ContextResponse otherSession = turn(ContextRequest.builder("deploy pipeline checks").sessionId("b"));
        ContextResponse standard = turn(ContextRequest.builder("deploy pipeline checks").sessionId("c")
                .tier(ContextTier.STANDARD));

        assertThat(lean.budget()).isEqualTo(800);
        assertThat(sameSessionNext.budget()).isEqualTo(2000);
        assertThat(otherSession.budget()).isEqualTo(2000);
        assertThat(otherSession.items().size()).isGreaterThan(lean.items().size());
        assertThat(standard.budget()).isEqualTo(4000);
        assertThat(standard.items()).extracting(ContextItem::score).allMatch(score -> score >= 0.05);
    }

    @Test
    void aRequestHasALevelOrATier_notBoth_andBadNamesAreRefused() {
        assertThatThrownBy(() -> ContextRequest.builder("q").level(ContextLevel.LEAN).tier(ContextTier.MINIMAL)
                .build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a request has a level or a tier, not both: level lean, tier minimal");
        assertThat(ContextLevel.parse("auto")).isEqualTo(ContextLevel.BALANCED);
        assertThat(ContextLevel.parse(" 2 ")).isEqualTo(ContextLevel.LEAN);
        assertThat(ContextLevel.parse("RICH")).isEqualTo(ContextLevel.RICH);
        assertThatThrownBy(() -> ContextLevel.parse("huge")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown level 'huge' (minimal, lean, balanced, rich, full, 1 to 5, or auto)");
        assertThat(ContextTier.parse("Optimal")).isEqualTo(ContextTier.OPTIMAL);
        assertThatThrownBy(() -> ContextTier.parse("max")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown tier 'max'");
    }

    @Test
    void aTiersSplit_addsUp_andItsRecentTurns_areTheNewestThatFit_oldestFirst() {
        for (ContextTier tier : ContextTier.values()) {
            assertThat(tier.memoryTokens() + tier.recentTurnTokens() + tier.stateTokens())
                    .isEqualTo(tier.totalTokens());
        }
        assertThat(ContextTier.MINIMAL.totalTokens()).isEqualTo(8_000);
        assertThat(ContextTier.STANDARD.totalTokens()).isEqualTo(15_000);
        assertThat(ContextTier.OPTIMAL.totalTokens()).isEqualTo(50_000);
        JTokkitTokenizer tokens = JTokkitTokenizer.cl100k();
        List<String> turns = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            turns.add("turn " + i + ": " + "words ".repeat(40));
        }

        List<String> kept = ContextTier.MINIMAL.recentTurns(turns, tokens);

        assertThat(kept).isNotEmpty().endsWith(turns.get(399));
        assertThat(kept).isEqualTo(turns.subList(400 - kept.size(), 400));
        assertThat(kept.stream().mapToInt(tokens::count).sum()).isLessThanOrEqualTo(4_500)
                .isGreaterThan(4_500 - tokens.count(turns.get(0)));
        assertThat(ContextTier.MINIMAL.recentTurns(Collections.nCopies(3, "short"), tokens)).hasSize(3);
    }
}
