package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Memory;
import dev.memfas.core.envelope.ContextEnvelope;
import dev.memfas.core.text.JTokkitTokenizer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The envelope's "3 days ago": which memories say it, by UTC calendar day, and that the budget counts it exactly. */
final class RelativeDatesTest {
    private static final Instant NOW = Instant.parse("2026-11-24T08:30:00Z");

    @Test
    void theLastTwoWeeks_sayHowLongAgo_byCalendarDay_andNothingElseDoes() {
        assertThat(ContextEnvelope.age(Instant.parse("2026-11-24T00:00:00Z"), NOW)).isEqualTo("today");
        assertThat(ContextEnvelope.age(Instant.parse("2026-11-23T23:59:59Z"), NOW)).isEqualTo("yesterday");
        assertThat(ContextEnvelope.age(Instant.parse("2026-11-21T10:00:00Z"), NOW)).isEqualTo("3 days ago");
        assertThat(ContextEnvelope.age(Instant.parse("2026-11-11T10:00:00Z"), NOW)).isEqualTo("13 days ago");
        assertThat(ContextEnvelope.age(Instant.parse("2026-11-10T23:00:00Z"), NOW)).isNull();
        assertThat(ContextEnvelope.age(Instant.parse("2026-11-25T00:00:00Z"), NOW)).isNull();
        // Across a year boundary.
        assertThat(ContextEnvelope.age(Instant.parse("2025-12-30T12:00:00Z"), Instant.parse("2026-01-02T01:00:00Z")))
                .isEqualTo("3 days ago");
    }

    @Test
    void aRecentMemory_isDatedByHowLongAgo_theEnvelopeNamesTheDay_andAnAsOfTurnCountsFromItsMoment() {
        MutableClock clock = new MutableClock(NOW);
        try (ContextCurator curator = Memfas.newBuilder().clock(clock).build()) {
            curator.rememberAll(List.of(
                    Memory.builder("The deploy freeze starts Friday.").id("recent")
                            .createdAt(Instant.parse("2026-11-21T09:00:00Z")).build(),
                    Memory.builder("The deploy pipeline moved to GitHub Actions.").id("old")
                            .createdAt(Instant.parse("2026-08-02T09:00:00Z")).build()));

            ContextResponse r = curator.getContext("deploy freeze pipeline", "s1");

            assertThat(r.context()).startsWith("<memory_context today=\"2026-11-24\">\n")
                    .contains("<memory id=\"recent\" date=\"3 days ago\">")
                    .contains("<memory id=\"old\" date=\"2026-08-02\">");
            assertThat(r.tokensUsed()).isEqualTo(JTokkitTokenizer.cl100k().count(r.context()));

            clock.advance(Duration.ofDays(1));
            assertThat(curator.getContext("deploy freeze pipeline", "s1").context())
                    .contains("date=\"4 days ago\"");
            ContextResponse past = curator.getContext(ContextRequest.builder("deploy freeze pipeline").sessionId("s2")
                    .asOf(Instant.parse("2026-11-22T12:00:00Z")).build());
            assertThat(past.context()).startsWith("<memory_context today=\"2026-11-22\">")
                    .contains("date=\"yesterday\"");

            clock.advance(Duration.ofDays(30));
            assertThat(curator.getContext("deploy freeze pipeline", "s3").context())
                    .startsWith("<memory_context>\n").contains("date=\"2026-11-21\"");
        }
    }

    @Test
    void namingTheDay_takesTheSameTokensWhateverTheDay_soItIsCountedOnce() {
        JTokkitTokenizer tokenizer = JTokkitTokenizer.cl100k();
        int open = tokenizer.count(ContextEnvelope.OPEN);
        int reference = tokenizer.count(ContextEnvelope.open("2026-01-15")) - open;
        for (Instant day = Instant.parse("2000-01-01T00:00:00Z"); day.isBefore(Instant.parse("2100-01-01T00:00:00Z"));
                day = day.plus(Duration.ofDays(1))) {
            StringBuilder written = new StringBuilder();
            ContextEnvelope.appendDate(written, day);
            assertThat(tokenizer.count(ContextEnvelope.open(written.toString())) - open).as(written.toString())
                    .isEqualTo(reference);
        }
    }

    @Test
    void aCutItem_keepsItsAge_withinItsCap() {
        try (ContextCurator curator = Memfas.newBuilder().clock(new MutableClock(NOW)).maxItemTokens(40).build()) {
            curator.remember(Memory.builder("deploy " + "and then the next step of the rollout ".repeat(40)).id("long")
                    .createdAt(NOW.minus(Duration.ofDays(2))).build());

            ContextResponse r = curator.getContext(ContextRequest.builder("deploy rollout").sessionId("s1")
                    .tokenBudget(400).build());

            assertThat(r.context()).contains("date=\"2 days ago\"").contains("[…truncated]");
            assertThat(r.items()).singleElement().satisfies(i -> assertThat(i.tokens()).isLessThanOrEqualTo(40));
            assertThat(r.tokensUsed()).isEqualTo(JTokkitTokenizer.cl100k().count(r.context()));
        }
    }
}
