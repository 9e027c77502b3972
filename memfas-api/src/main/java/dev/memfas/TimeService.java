package dev.memfas;

import dev.memfas.internal.Checks;
import java.time.Clock;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.Month;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.time.temporal.IsoFields;
import java.time.temporal.TemporalAdjusters;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Time as an agent needs it, on an injected clock: where "now" falls in a time zone (its day and ISO week), what a
 * phrase such as "last week" or "3 days ago" means as a window of time, and a duration said in words. Days and weeks
 * are the zone's, so a day is 23 or 25 hours across a daylight-saving change. Thread-safe.
 */
public final class TimeService {
    private static final Pattern AGO = Pattern.compile("(\\d{1,4}) (day|week|month|year)s? ago");
    private static final Pattern AHEAD = Pattern.compile("in (\\d{1,4}) (day|week|month|year)s?");
    private static final Pattern WEEKDAY = Pattern.compile("(last|next|this) (monday|tuesday|wednesday|thursday|friday"
            + "|saturday|sunday)");
    private static final String MONTHS = "january|february|march|april|may|june|july|august|september|october"
            + "|november|december";
    private static final Pattern MONTH = Pattern.compile("(?:in )?(" + MONTHS + ")(?: (\\d{4}))?");
    /** "3 June 2023", "3rd of June, 2023", "3 June". */
    private static final Pattern DAY_MONTH = Pattern.compile("(\\d{1,2})(?:st|nd|rd|th)? (?:of )?(" + MONTHS
            + ")(?:,? (\\d{4}))?");
    /** "June 3, 2023", "June 3rd 2023", "June 3". */
    private static final Pattern MONTH_DAY = Pattern.compile("(" + MONTHS + ") (\\d{1,2})(?:st|nd|rd|th)?(?:,? "
            + "(\\d{4}))?");

    private final Clock clock;

    private TimeService(Clock clock) {
        this.clock = clock;
    }

    /** A time service reading the given clock. */
    public static TimeService of(Clock clock) {
        return new TimeService(Objects.requireNonNull(clock, "clock"));
    }

    /**
     * Where now falls in a time zone.
     *
     * @param instant now
     * @param local now in the zone, with its offset
     * @param dayStart the start of the zone's day (inclusive) and {@code dayEnd} its end (exclusive)
     * @param weekStart the start of the ISO week, Monday (inclusive), and {@code weekEnd} its end (exclusive)
     * @param isoWeek the ISO week number, and {@code isoWeekYear} the year it belongs to
     */
    public record TimeAnchor(Instant instant, ZonedDateTime local, Instant dayStart, Instant dayEnd,
            Instant weekStart, Instant weekEnd, int isoWeek, int isoWeekYear) {}

    /**
     * A span of time a phrase names: from {@code start} (inclusive) to {@code end} (exclusive).
     *
     * @param expression the phrase as given
     */
    public record TimeWindow(String expression, Instant start, Instant end) {
        /** Checks the window is not empty. */
        public TimeWindow {
            Objects.requireNonNull(expression, "expression");
            if (!end.isAfter(start)) {
                throw new IllegalArgumentException("a time window must end after it starts: " + start + " to " + end);
            }
        }

        /** Whether the instant is in the window. */
        public boolean contains(Instant t) {
            return !t.isBefore(start) && t.isBefore(end);
        }
    }

    /** Now, in the given zone. */
    public TimeAnchor now(ZoneId zone) {
        Objects.requireNonNull(zone, "zone");
        ZonedDateTime local = clock.instant().atZone(zone);
        LocalDate today = local.toLocalDate();
        LocalDate monday = today.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
        return new TimeAnchor(local.toInstant(), local, start(today, zone), start(today.plusDays(1), zone),
                start(monday, zone), start(monday.plusWeeks(1), zone), today.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR),
                today.get(IsoFields.WEEK_BASED_YEAR));
    }

    /**
     * The window of time a phrase names, in the given zone: {@code today}, {@code yesterday}, {@code tomorrow};
     * {@code this}, {@code last} or {@code next} followed by {@code week}, {@code month} or {@code year};
     * {@code last}, {@code next} or {@code this} and a weekday; {@code N days|weeks|months|years ago} and
     * {@code in N days|weeks|months|years} (the day that far away); {@code end of week|month|year} (its last day);
     * a month name, with {@code in} and a year or not (without a year, the latest such month that has begun); a day
     * in words, {@code 3 June 2023}, {@code 3rd of June}, {@code June 3, 2023}, {@code June 3rd} (without a year, the
     * latest such day that has begun); an ISO date ({@code 2026-03-01}), month ({@code 2026-03}) or year
     * ({@code 2026}). Case and surrounding spaces do not matter.
     *
     * @throws IllegalArgumentException if the phrase is none of these
     */
    public TimeWindow resolve(String expression, ZoneId zone) {
        Objects.requireNonNull(expression, "expression");
        Objects.requireNonNull(zone, "zone");
        String e = expression.strip().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        LocalDate today = clock.instant().atZone(zone).toLocalDate();
        LocalDate monday = today.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
        LocalDate from;
        LocalDate to;
        switch (e) {
            case "today" -> {
                from = today;
                to = today.plusDays(1);
            }
            case "yesterday" -> {
                from = today.minusDays(1);
                to = today;
            }
            case "tomorrow" -> {
                from = today.plusDays(1);
                to = today.plusDays(2);
            }
            case "this week" -> {
                from = monday;
                to = monday.plusWeeks(1);
            }
            case "last week" -> {
                from = monday.minusWeeks(1);
                to = monday;
            }
            case "next week" -> {
                from = monday.plusWeeks(1);
                to = monday.plusWeeks(2);
            }
            case "this month", "last month", "next month" -> {
                YearMonth month = YearMonth.from(today).plusMonths(e.startsWith("last") ? -1 : e.startsWith("next") ? 1
                        : 0);
                from = month.atDay(1);
                to = month.plusMonths(1).atDay(1);
            }
            case "this year", "last year", "next year" -> {
                int year = today.getYear() + (e.startsWith("last") ? -1 : e.startsWith("next") ? 1 : 0);
                from = LocalDate.of(year, 1, 1);
                to = from.plusYears(1);
            }
            case "end of week" -> {
                from = monday.plusDays(6);
                to = from.plusDays(1);
            }
            case "end of month" -> {
                from = today.with(TemporalAdjusters.lastDayOfMonth());
                to = from.plusDays(1);
            }
            case "end of year" -> {
                from = today.with(TemporalAdjusters.lastDayOfYear());
                to = from.plusDays(1);
            }
            default -> {
                LocalDate[] span = relative(e, today);
                if (span == null) {
                    throw new IllegalArgumentException("not a time phrase memfas reads: '" + Checks.printable(
                            expression) + "' (try today, yesterday, last week, next Monday, 3 days ago, in 2 weeks,"
                            + " end of month, in March, 3 June 2026, 2026-03-01)");
                }
                from = span[0];
                to = span[1];
            }
        }
        return new TimeWindow(expression, start(from, zone), start(to, zone));
    }

    /** The span of the phrases with numbers, weekdays, months and ISO dates; null if it is none of them. */
    private static LocalDate[] relative(String e, LocalDate today) {
        Matcher m = AGO.matcher(e);
        if (m.matches()) {
            LocalDate day = today.minus(Long.parseLong(m.group(1)), unit(m.group(2)));
            return new LocalDate[] {day, day.plusDays(1)};
        }
        m = AHEAD.matcher(e);
        if (m.matches()) {
            LocalDate day = today.plus(Long.parseLong(m.group(1)), unit(m.group(2)));
            return new LocalDate[] {day, day.plusDays(1)};
        }
        m = WEEKDAY.matcher(e);
        if (m.matches()) {
            DayOfWeek dow = DayOfWeek.valueOf(m.group(2).toUpperCase(Locale.ROOT));
            LocalDate day = switch (m.group(1)) {
                case "last" -> today.with(TemporalAdjusters.previous(dow));
                case "next" -> today.with(TemporalAdjusters.next(dow));
                default -> today.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)).with(
                        TemporalAdjusters.nextOrSame(dow));
            };
            return new LocalDate[] {day, day.plusDays(1)};
        }
        m = DAY_MONTH.matcher(e);
        if (m.matches()) {
            return day(m.group(3), m.group(2), m.group(1), today);
        }
        m = MONTH_DAY.matcher(e);
        if (m.matches()) {
            return day(m.group(3), m.group(1), m.group(2), today);
        }
        m = MONTH.matcher(e);
        if (m.matches()) {
            Month month = Month.valueOf(m.group(1).toUpperCase(Locale.ROOT));
            int year = m.group(2) != null ? Integer.parseInt(m.group(2))
                    : month.getValue() <= today.getMonthValue() ? today.getYear() : today.getYear() - 1;
            YearMonth ym = YearMonth.of(year, month);
            return new LocalDate[] {ym.atDay(1), ym.plusMonths(1).atDay(1)};
        }
        try {
            if (e.matches("\\d{4}-\\d{2}-\\d{2}")) {
                LocalDate day = LocalDate.parse(e);
                return new LocalDate[] {day, day.plusDays(1)};
            }
            if (e.matches("\\d{4}-\\d{2}")) {
                YearMonth ym = YearMonth.parse(e);
                return new LocalDate[] {ym.atDay(1), ym.plusMonths(1).atDay(1)};
            }
            if (e.matches("\\d{4}")) {
                LocalDate first = LocalDate.of(Integer.parseInt(e), 1, 1);
                return new LocalDate[] {first, first.plusYears(1)};
            }
        } catch (DateTimeParseException notADate) {
            return null;
        }
        return null;
    }

    /**
     * The day a date in words names; without a year, the latest such day that has begun (for 29 February, the latest
     * leap day). Null for a day the month does not have (31 June, 29 February 2023).
     */
    private static LocalDate[] day(String year, String monthName, String dayOfMonth, LocalDate today) {
        Month month = Month.valueOf(monthName.toUpperCase(Locale.ROOT));
        int dom = Integer.parseInt(dayOfMonth);
        if (dom < 1 || dom > month.maxLength()) {
            return null;
        }
        LocalDate day;
        if (year != null) {
            int y = Integer.parseInt(year);
            if (dom > YearMonth.of(y, month).lengthOfMonth()) {
                return null;
            }
            day = LocalDate.of(y, month, dom);
        } else {
            day = null;
            for (int y = today.getYear(); y > today.getYear() - 8 && day == null; y--) {
                if (dom <= YearMonth.of(y, month).lengthOfMonth() && !LocalDate.of(y, month, dom).isAfter(today)) {
                    day = LocalDate.of(y, month, dom);
                }
            }
        }
        return day == null ? null : new LocalDate[] {day, day.plusDays(1)};
    }

    private static ChronoUnit unit(String word) {
        return switch (word) {
            case "day" -> ChronoUnit.DAYS;
            case "week" -> ChronoUnit.WEEKS;
            case "month" -> ChronoUnit.MONTHS;
            default -> ChronoUnit.YEARS;
        };
    }

    /** The instant the zone's day begins (not always midnight: some zones skip it on a daylight-saving change). */
    private static Instant start(LocalDate day, ZoneId zone) {
        return day.atStartOfDay(zone).toInstant();
    }

    /**
     * A duration in words, its largest unit and the next if that is not zero: {@code "3 hours 42 minutes"},
     * {@code "2 days 1 hour"}, {@code "2 days"} (for 2 days and 5 minutes), {@code "45 seconds"}, {@code "0 seconds"};
     * a negative duration reads as its length followed by {@code "ago"}.
     */
    public static String formatDuration(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        Duration d = duration.abs();
        long[] amounts = {d.toDays(), d.toHoursPart(), d.toMinutesPart(), d.toSecondsPart()};
        String[] units = {"day", "hour", "minute", "second"};
        StringBuilder sb = new StringBuilder();
        int said = 0;
        // The largest unit that is not zero, and the next one if it is not zero either.
        for (int i = 0; i < amounts.length && said < 2; i++) {
            if (amounts[i] == 0) {
                if (said > 0) {
                    break;
                }
                continue;
            }
            if (said > 0) {
                sb.append(' ');
            }
            sb.append(amounts[i]).append(' ').append(units[i]).append(amounts[i] == 1 ? "" : "s");
            said++;
        }
        if (sb.length() == 0) {
            sb.append("0 seconds");
        }
        return duration.isNegative() ? sb.append(" ago").toString() : sb.toString();
    }
}
