package dev.memfas.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextItem;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.core.Memfas;
import dev.memfas.core.MutableClock;
import dev.memfas.core.store.InMemoryMemoryStore;
import dev.memfas.core.text.JTokkitTokenizer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Standing guidance: corrections and rules said again are counted, not stored twice; anti-patterns say "Avoid". */
final class KindsTest {
    private static final Instant NOW = Instant.parse("2026-11-24T09:00:00Z");
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final ContextCurator curator = Memfas.newBuilder().store(store).clock(new MutableClock(NOW)).build();

    @AfterEach
    void close() {
        curator.close();
    }

    private Memory said(String text, String kind, int daysAgo) {
        return curator.remember(Memory.builder(text).kind(kind).createdAt(NOW.minus(Duration.ofDays(daysAgo))).build());
    }

    private List<Memory> all() {
        List<Memory> out = new ArrayList<>();
        store.forEach("default", MemoryFilter.all(), out::add);
        return out;
    }

    @Test
    void aCorrectionSaidAgainOnOtherDays_isOneMemory_whoseFrequencyRises() {
        Memory first = said("Use UTC timestamps in logs, not local time.", "correction", 9);
        Memory again = said("use UTC timestamps in logs -- not local time", "correction", 4);
        Memory third = said("Use UTC timestamps in logs, not local time.", "correction", 1);

        assertThat(again.id()).isEqualTo(first.id());
        assertThat(third.id()).isEqualTo(first.id());
        assertThat(all()).hasSize(1);
        assertThat(store.get("default", first.id()).orElseThrow().evidenceCount()).isEqualTo(3);
    }

    @Test
    void everyGuidanceKind_isCountedWhenSaidAgain_butANoteOnTwoDaysIsTwoEvents() {
        for (String kind : List.of("preference", "rule", "correction", "decision", "anti_pattern")) {
            assertThat(said("Squash commits before merging, " + kind + ".", kind, 3).id())
                    .as(kind).isEqualTo(said("Squash commits before merging, " + kind + ".", kind, 2).id());
        }
        Memory monday = said("Standup ran long.", "note", 3);
        Memory tuesday = said("Standup ran long.", "note", 2);

        assertThat(tuesday.id()).isNotEqualTo(monday.id());
        assertThat(all()).hasSize(7);
    }

    @Test
    void frequency_feedsTheScore_theOftenCorrectedRanksFirst() {
        Memory often = said("Run the linter before pushing a branch.", "correction", 5);
        said("Run the linter before pushing a branch.", "correction", 3);
        said("Run the linter before pushing a branch.", "correction", 1);
        Memory once = said("Run the tests before pushing a branch.", "correction", 5);

        ContextResponse r = curator.getContext(ContextRequest.builder("before pushing a branch").sessionId("s")
                .build());

        ContextItem first = r.items().get(0);
        assertThat(first.memoryId()).isEqualTo(often.id());
        assertThat(first.factors().frequency()).isGreaterThan(item(r, once.id()).factors().frequency());
    }

    @Test
    void antiPatterns_renderAsAvoid_onceAndCountedExactly() {
        said("catching Exception and ignoring it", "anti_pattern", 1);
        said("Avoid mocking the database in integration tests", "anti_pattern", 1);

        ContextResponse r = curator.getContext(ContextRequest.builder("exception handling and integration tests")
                .sessionId("s").build());

        // Both were said the same day: lines under its heading.
        assertThat(r.context()).containsPattern("\\n\\[[^\\]]+\\] Avoid: catching Exception and ignoring it\\n")
                .containsPattern("\\n\\[[^\\]]+\\] Avoid mocking the database in integration tests\\n")
                .doesNotContain("Avoid: Avoid");
        assertThat(r.tokensUsed()).isEqualTo(JTokkitTokenizer.cl100k().count(r.context()));
    }

    private static ContextItem item(ContextResponse r, String id) {
        return r.items().stream().filter(i -> i.memoryId().equals(id)).findFirst().orElseThrow();
    }
}
