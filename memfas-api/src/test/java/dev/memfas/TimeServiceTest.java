package dev.memfas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The time service on fixed clocks, across a daylight-saving change and a year boundary. */
final class TimeServiceTest {
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private static TimeService at(String instant) {
        return TimeService.of(Clock.fixed(Instant.parse(instant), ZoneOffset.UTC));
    }

    private static String window(TimeService t, String phrase, ZoneId zone) {
        TimeService.TimeWindow w = t.resolve(phrase, zone);
        return w.start().atZone(zone).toOffsetDateTime() + " / " + w.end().atZone(zone).toOffsetDateTime();
    }

    @Test
    void now_knowsTheZonesDay_andWeek_onTheDayTheClocksGoForward() {
        TimeService.TimeAnchor a = at("2026-03-29T12:00:00Z").now(BERLIN);

        assertThat(a.local().toString()).isEqualTo("2026-03-29T14:00+02:00[Europe/Berlin]");
        assertThat(Duration.between(a.dayStart(), a.dayEnd())).isEqualTo(Duration.ofHours(23));
        assertThat(a.dayStart()).isEqualTo(Instant.parse("2026-03-28T23:00:00Z"));
        assertThat(a.weekStart()).isEqualTo(Instant.parse("2026-03-22T23:00:00Z"));
        assertThat(Duration.between(a.weekStart(), a.weekEnd())).isEqualTo(Duration.ofHours(167));
        assertThat(a.isoWeek()).isEqualTo(13);
        assertThat(a.isoWeekYear()).isEqualTo(2026);
    }

    @Test
    void yesterday_acrossTheChange_isTwentyThreeHoursLong() {
        TimeService t = at("2026-03-30T08:00:00Z");

        assertThat(window(t, "yesterday", BERLIN)).isEqualTo("2026-03-29T00:00+01:00 / 2026-03-30T00:00+02:00");
        assertThat(window(t, "3 days ago", BERLIN)).isEqualTo("2026-03-27T00:00+01:00 / 2026-03-28T00:00+01:00");
        assertThat(window(t, "last week", BERLIN)).isEqualTo("2026-03-23T00:00+01:00 / 2026-03-30T00:00+02:00");
    }

    @Test
    void theYearBoundary_andTheZone_decideWhichDayItIs() {
        TimeService t = at("2026-12-31T23:30:00Z");
        ZoneId auckland = ZoneId.of("Pacific/Auckland");

        assertThat(window(t, "tomorrow", ZoneOffset.UTC)).isEqualTo("2027-01-01T00:00Z / 2027-01-02T00:00Z");
        assertThat(window(t, "today", auckland)).startsWith("2027-01-01T00:00+13:00");
        assertThat(t.now(auckland).isoWeek()).isEqualTo(53);
        assertThat(t.now(auckland).isoWeekYear()).isEqualTo(2026);
        assertThat(window(t, "next week", ZoneOffset.UTC)).isEqualTo("2027-01-04T00:00Z / 2027-01-11T00:00Z");
        assertThat(window(t, "end of month", ZoneOffset.UTC)).isEqualTo("2026-12-31T00:00Z / 2027-01-01T00:00Z");
        assertThat(window(t, "next year", ZoneOffset.UTC)).isEqualTo("2027-01-01T00:00Z / 2028-01-01T00:00Z");
        assertThat(window(t, "in 2 weeks", ZoneOffset.UTC)).isEqualTo("2027-01-14T00:00Z / 2027-01-15T00:00Z");
    }

    @Test
    void weekdaysMonthsAndIsoDates() {
        TimeService t = at("2026-11-25T10:00:00Z"); // a Wednesday

        assertThat(window(t, "Next Monday", ZoneOffset.UTC)).isEqualTo("2026-11-30T00:00Z / 2026-12-01T00:00Z");
        assertThat(window(t, "last monday", ZoneOffset.UTC)).isEqualTo("2026-11-23T00:00Z / 2026-11-24T00:00Z");
        assertThat(window(t, "this friday", ZoneOffset.UTC)).isEqualTo("2026-11-27T00:00Z / 2026-11-28T00:00Z");
        assertThat(window(t, "in March", ZoneOffset.UTC)).isEqualTo("2026-03-01T00:00Z / 2026-04-01T00:00Z");
        assertThat(window(t, "december", ZoneOffset.UTC)).isEqualTo("2025-12-01T00:00Z / 2026-01-01T00:00Z");
        assertThat(window(t, "in march 2024", ZoneOffset.UTC)).isEqualTo("2024-03-01T00:00Z / 2024-04-01T00:00Z");
        assertThat(window(t, " 2026-03-01 ", ZoneOffset.UTC)).isEqualTo("2026-03-01T00:00Z / 2026-03-02T00:00Z");
        assertThat(window(t, "2026-02", ZoneOffset.UTC)).isEqualTo("2026-02-01T00:00Z / 2026-03-01T00:00Z");
        assertThat(window(t, "2025", ZoneOffset.UTC)).isEqualTo("2025-01-01T00:00Z / 2026-01-01T00:00Z");
        assertThat(window(t, "last month", ZoneOffset.UTC)).isEqualTo("2026-10-01T00:00Z / 2026-11-01T00:00Z");
        assertThat(window(t, "end of week", ZoneOffset.UTC)).isEqualTo("2026-11-29T00:00Z / 2026-11-30T00:00Z");
        assertThat(t.resolve("this week", ZoneOffset.UTC).contains(Instant.parse("2026-11-23T00:00:00Z"))).isTrue();
        assertThat(t.resolve("this week", ZoneOffset.UTC).contains(Instant.parse("2026-11-30T00:00:00Z"))).isFalse();
    }

    @Test
    void daysInWords_withAYearOrTheLatestThatHasBegun() {
        TimeService t = at("2026-11-25T10:00:00Z");

        assertThat(window(t, "3 June 2023", ZoneOffset.UTC)).isEqualTo("2023-06-03T00:00Z / 2023-06-04T00:00Z");
        assertThat(window(t, "3 June, 2023", ZoneOffset.UTC)).isEqualTo("2023-06-03T00:00Z / 2023-06-04T00:00Z");
        assertThat(window(t, "3rd of June 2023", ZoneOffset.UTC)).isEqualTo("2023-06-03T00:00Z / 2023-06-04T00:00Z");
        assertThat(window(t, "October 13, 2023", ZoneOffset.UTC)).isEqualTo("2023-10-13T00:00Z / 2023-10-14T00:00Z");
        assertThat(window(t, "May 23rd 2023", ZoneOffset.UTC)).isEqualTo("2023-05-23T00:00Z / 2023-05-24T00:00Z");
        assertThat(window(t, "November 25", ZoneOffset.UTC)).isEqualTo("2026-11-25T00:00Z / 2026-11-26T00:00Z");
        assertThat(window(t, "26 November", ZoneOffset.UTC)).isEqualTo("2025-11-26T00:00Z / 2025-11-27T00:00Z");
        assertThat(window(t, "February 29", ZoneOffset.UTC)).isEqualTo("2024-02-29T00:00Z / 2024-03-01T00:00Z");
        assertThat(window(t, "29 February 2024", BERLIN)).isEqualTo("2024-02-29T00:00+01:00 / 2024-03-01T00:00+01:00");
    }

    @Test
    void aDayTheMonthDoesNotHave_isRefusedByName() {
        TimeService t = at("2026-11-25T10:00:00Z");

        assertThatThrownBy(() -> t.resolve("31 June 2023", ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'31 June 2023'");
        assertThatThrownBy(() -> t.resolve("February 29, 2023", ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'February 29, 2023'");
        assertThatThrownBy(() -> t.resolve("0 May", ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'0 May'");
    }

    @Test
    void aPhraseItCannotRead_isRefusedByName() {
        assertThatThrownBy(() -> at("2026-11-25T10:00:00Z").resolve("the day after the migration", ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("not a time phrase memfas reads: 'the day after the migration'");
        assertThatThrownBy(() -> at("2026-11-25T10:00:00Z").resolve("2026-02-30", ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'2026-02-30'");
    }

    @Test
    void durationsInWords() {
        assertThat(TimeService.formatDuration(Duration.ofMinutes(222))).isEqualTo("3 hours 42 minutes");
        assertThat(TimeService.formatDuration(Duration.ofHours(49))).isEqualTo("2 days 1 hour");
        assertThat(TimeService.formatDuration(Duration.ofDays(2).plusMinutes(5))).isEqualTo("2 days");
        assertThat(TimeService.formatDuration(Duration.ofSeconds(45))).isEqualTo("45 seconds");
        assertThat(TimeService.formatDuration(Duration.ZERO)).isEqualTo("0 seconds");
        assertThat(TimeService.formatDuration(Duration.ofMinutes(-90))).isEqualTo("1 hour 30 minutes ago");
    }
}
