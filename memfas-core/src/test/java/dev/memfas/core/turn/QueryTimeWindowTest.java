package dev.memfas.core.turn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.RecallHit;
import dev.memfas.RecallRequest;
import dev.memfas.TimeService;
import dev.memfas.core.Memfas;
import dev.memfas.core.MutableClock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The windows of time queries name, and what they do to a ranking. */
final class QueryTimeWindowTest {
    /** A Tuesday. */
    private static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");

    private static String window(String query) {
        TimeService.TimeWindow w = QueryTimeWindow.find(query, NOW);
        return w == null ? null : w.start() + "/" + w.end();
    }

    @Test
    void phrasesAboutThePast_nameTheirWindow() {
        assertThat(window("What did we decide last week?")).isEqualTo("2026-11-16T00:00:00Z/2026-11-23T00:00:00Z");
        assertThat(window("yesterday's deploy")).isEqualTo("2026-11-23T00:00:00Z/2026-11-24T00:00:00Z");
        assertThat(window("what did I do 5 days ago")).isEqualTo("2026-11-19T00:00:00Z/2026-11-20T00:00:00Z");
        assertThat(window("the artist I listened to last Friday"))
                .isEqualTo("2026-11-20T00:00:00Z/2026-11-21T00:00:00Z");
        assertThat(window("workshops in April")).isEqualTo("2026-04-01T00:00:00Z/2026-05-01T00:00:00Z");
        assertThat(window("What setback did she face in October 2023?"))
                .isEqualTo("2023-10-01T00:00:00Z/2023-11-01T00:00:00Z");
        assertThat(window("the pride parade, August 2023")).isEqualTo("2023-08-01T00:00:00Z/2023-09-01T00:00:00Z");
        assertThat(window("how often at the beach in 2023")).isEqualTo("2023-01-01T00:00:00Z/2024-01-01T00:00:00Z");
        assertThat(window("notes from 2026-03-01")).isEqualTo("2026-03-01T00:00:00Z/2026-03-02T00:00:00Z");
    }

    @Test
    void daysInWords_nameThatDay() {
        assertThat(window("What new activity did she start, as mentioned on 3 June, 2023?"))
                .isEqualTo("2023-06-03T00:00:00Z/2023-06-04T00:00:00Z");
        assertThat(window("Who did Maria have dinner with on May 3, 2023?"))
                .isEqualTo("2023-05-03T00:00:00Z/2023-05-04T00:00:00Z");
        assertThat(window("the plan for the evening of 7th July 2023"))
                .isEqualTo("2023-07-07T00:00:00Z/2023-07-08T00:00:00Z");
        assertThat(window("the review in June 3rd's meeting")).isEqualTo("2026-06-03T00:00:00Z/2026-06-04T00:00:00Z");
        assertThat(window("what we said on 1st of November")).isEqualTo("2026-11-01T00:00:00Z/2026-11-02T00:00:00Z");
        // "before" is not read: the day named is the window, and the days around it are the closest.
        assertThat(window("what did Maria do last weekend before April 10, 2023?"))
                .isEqualTo("2023-04-10T00:00:00Z/2023-04-11T00:00:00Z");
        // November 30 of this year is still ahead on the 24th: the latest one that has begun is last year's.
        assertThat(window("the launch on November 30")).isEqualTo("2025-11-30T00:00:00Z/2025-12-01T00:00:00Z");
        assertThat(window("in June 2023 and later")).isEqualTo("2023-06-01T00:00:00Z/2023-07-01T00:00:00Z");
        // "May" beside a number is a day with a year, an ordinal, "of", or after "on".
        assertThat(window("what did we ship on May 10")).isEqualTo("2026-05-10T00:00:00Z/2026-05-11T00:00:00Z");
        assertThat(window("the top 10 may be wrong, as said on the 10th of May"))
                .isEqualTo("2026-05-10T00:00:00Z/2026-05-11T00:00:00Z");
        assertThat(window("notes of 10 May 2023")).isEqualTo("2023-05-10T00:00:00Z/2023-05-11T00:00:00Z");
    }

    @Test
    void otherWordsAndTheFuture_nameNone() {
        assertThat(window("May I ask what the deploy steps are?")).isNull();
        assertThat(window("what is planned for next week")).isNull();
        assertThat(window("the weekly report")).isNull();
        assertThat(window("release 2026-13-45")).isNull();
        assertThat(window("the report of 31 June 2023")).isNull();
        assertThat(window("we may 2x the cache")).isNull();
        assertThat(window("the top 10 may be wrong")).isNull();
        assertThat(window("May 3 people join the call?")).isNull();
        assertThat(window("lift 10 kg in 3 sets")).isNull();
        assertThat(window("the 2023 budget")).isNull();
    }

    @Test
    void aNamedWindow_ranksWhatIsDatedInIt_aboveNewerAndOlderMatches() {
        try (ContextCurator curator = Memfas.newBuilder().clock(new MutableClock(NOW)).build()) {
            curator.rememberAll(List.of(
                    Memory.builder("We decided to move the cache to Redis.").id("older")
                            .createdAt(Instant.parse("2026-10-01T10:00:00Z")).build(),
                    Memory.builder("We decided to retry the payment calls twice.").id("last-week")
                            .createdAt(Instant.parse("2026-11-18T10:00:00Z")).build(),
                    Memory.builder("We decided to freeze deploys on Fridays.").id("today")
                            .createdAt(Instant.parse("2026-11-24T09:00:00Z")).build()));

            List<String> plain = curator.recall(RecallRequest.builder("what did we decide?").limit(3).build()).stream()
                    .map(h -> h.memory().id()).toList();
            List<RecallHit> windowed = curator
                    .recall(RecallRequest.builder("what did we decide last week?").limit(3).build());

            assertThat(plain.get(0)).isEqualTo("today");
            assertThat(windowed.get(0).memory().id()).isEqualTo("last-week");
            assertThat(windowed.get(0).factors().recency()).isEqualTo(1.0);
        }
        try (ContextCurator off = Memfas.newBuilder().clock(new MutableClock(NOW)).timeWindowWeight(0).build()) {
            off.rememberAll(List.of(
                    Memory.builder("We decided to retry the payment calls twice.").id("last-week")
                            .createdAt(Instant.parse("2026-11-18T10:00:00Z")).build(),
                    Memory.builder("We decided to freeze deploys on Fridays.").id("today")
                            .createdAt(Instant.parse("2026-11-24T09:00:00Z")).build()));
            assertThat(off.recall(RecallRequest.builder("what did we decide last week?").limit(2).build()).get(0)
                    .memory().id()).isEqualTo("today");
        }
    }
}
