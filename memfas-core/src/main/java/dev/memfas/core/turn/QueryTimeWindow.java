package dev.memfas.core.turn;

import dev.memfas.TimeService;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The window of time a query names, if it names one: "what did we decide <b>last week</b>?", "the trip <b>in May
 * 2023</b>", "<b>yesterday</b>'s deploy", "<b>3 days ago</b>", "what did she say <b>on 3 June, 2023</b>",
 * "<b>2026-03-01</b>". Phrases are found with one pattern and read by the {@link TimeService} on the turn's moment, in
 * UTC days as the envelope writes dates.
 *
 * <p>Only phrases about the past are read: a query about "next week" asks about plans, which memories date when they
 * were made, not when they are for. A month name counts only after "in", "during" or "of", with a year, or with a day
 * of the month, so "May I ask" and "March on" name no time; a year only after "in" or "during". "May" beside a bare
 * number ("the top 10 may be wrong") is a day only after "on", or with an ordinal, "of" or a year. "Before", "after"
 * and "since" are not read (they name the edge of a window, not the window): in "the week before August 3, 2023" the
 * window is the day named, and closeness to it ranks the days around it next. Times relative to events ("before the
 * migration") are not read. Stateless.
 */
final class QueryTimeWindow {
    private static final String MONTHS = "january|february|march|april|may|june|july|august|september|october"
            + "|november|december";
    private static final String DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday";
    private static final Pattern PHRASE = Pattern.compile("\\b(?:"
            + "(?<plain>today|yesterday)"
            + "|(?<this>(?:this|last) (?:week|month|year|" + DAYS + "))"
            + "|(?<ago>\\d{1,4} (?:day|week|month|year)s? ago)"
            + "|(?<day>\\d{1,2}(?:st|nd|rd|th)? (?:of )?(?:" + MONTHS + ")(?:,? \\d{4})?)"
            + "|(?<monthDay>(?:" + MONTHS + ") \\d{1,2}(?:st|nd|rd|th)?(?:,? \\d{4})?)"
            + "|(?:in|during|of) (?<month>(?:" + MONTHS + ")(?: \\d{4})?)(?! \\d{1,2}(?:st|nd|rd|th)?\\b)"
            + "|(?:in|during) (?<year>\\d{4})"
            + "|(?<dated>(?:" + MONTHS + ") \\d{4})"
            + "|(?<iso>\\d{4}-\\d{2}(?:-\\d{2})?)"
            + ")\\b");

    /** What makes "may" beside a number a day: a year, an ordinal or "of". */
    private static final Pattern MAY_AS_A_DAY = Pattern.compile("\\d{4}|\\d(?:st|nd|rd|th)\\b| of ");

    private QueryTimeWindow() {}

    /** The window the query names, on the turn's moment {@code at}; null if it names none. */
    static TimeService.TimeWindow find(String query, Instant at) {
        String lower = query.toLowerCase(Locale.ROOT);
        Matcher m = PHRASE.matcher(lower);
        while (m.find()) {
            String day = m.group("day") != null ? m.group("day") : m.group("monthDay");
            if (day != null && maybeTheVerb(lower, m.start(), day)) {
                continue;
            }
            String phrase = day != null ? day
                    : m.group("month") != null ? "in " + m.group("month")
                    : m.group("dated") != null ? "in " + m.group("dated")
                    : m.group("year") != null ? m.group("year") : m.group();
            try {
                TimeService.TimeWindow window = TimeService.of(Clock.fixed(at, ZoneOffset.UTC)).resolve(phrase,
                        ZoneOffset.UTC);
                // A window wholly after the turn's moment is about plans, not what was remembered.
                return window.start().isAfter(at) ? null : window;
            } catch (IllegalArgumentException | java.time.DateTimeException notATime) {
                // An impossible date such as 2026-13-45.
                return null;
            }
        }
        return null;
    }

    /**
     * Whether a day of May, as found, may be the verb: "the top 10 may be wrong", "May 3 people join?". Read as a day
     * only with a year, an ordinal ("10th"), "of", or after "on".
     */
    private static boolean maybeTheVerb(String lower, int start, String day) {
        return day.contains("may") && !MAY_AS_A_DAY.matcher(day).find() && !lower.startsWith("on ", start - 3);
    }
}
