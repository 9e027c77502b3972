package dev.memfas.core.envelope;

import dev.memfas.Memory;
import dev.memfas.Trigger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The text format of a curated context:
 *
 * <pre>{@code
 * <memory_context today="2026-11-23">
 * <triggered_context>
 * <hint trigger="deploy">Run the migrations first.</hint>
 * <memory id="m7" source="MEMORY.md#Deploy" date="2026-11-02">...</memory>
 * </triggered_context>
 * <relevant_memory>
 * <memory id="m3" date="3 days ago">...</memory>
 * <memory id="m2" date="2026-10-01" valid-until="2026-11-20" superseded-by="m3">...</memory>
 * <day date="2026-09-14" source="chat-12">
 * [t4] ...
 * [t5] ...
 * </day>
 * </relevant_memory>
 * </memory_context>
 * }</pre>
 *
 * <p>Relevant items of the same source and day, two or more, are under one {@code <day>} heading that says their date
 * and source once ({@link EnvelopeLayout}); under it, an item with nothing left to say but its id is a line,
 * {@code [id] text} ({@link #asLine}). A turn that groups its items by scope puts the relevant ones under
 * {@code <scope name="project:hydra">} ... {@code </scope>} headings instead, the most specific first.
 *
 * <p>Memory text and hints are escaped ({@code &} and {@code <}), and attribute values also escape {@code "} and line
 * breaks, so no stored text can open or close a tag of the envelope. Dates are the memory's {@code createdAt} in UTC;
 * for the last two weeks, how long before the turn's day that was ({@link #age}), which takes fewer tokens than the
 * date, and the opening tag then says which day the turn is about. A memory that says when it stopped being true ({@code validUntil}) or what replaced it ({@code supersededBy}) shows
 * that too. An anti-pattern's text is preceded by "Avoid: " ({@link Kinds}).
 * Every piece ends in a line break and the next begins with {@code "<"} or {@code "["}, a boundary no BPE pre-token
 * crosses, so the token count of the whole is the sum of the pieces' counts.
 */
public final class ContextEnvelope {
    /** Names this rendering of an item; cached token counts are keyed by it, so a new format never reuses old ones. */
    public static final String ITEM_FORMAT = "memory-item-3";
    public static final String OPEN = "<memory_context>\n";
    static final String CLOSE = "</memory_context>";
    static final String TRIGGERED_OPEN = "<triggered_context>\n";
    static final String TRIGGERED_CLOSE = "</triggered_context>\n";
    static final String RELEVANT_OPEN = "<relevant_memory>\n";
    static final String RELEVANT_CLOSE = "</relevant_memory>\n";
    static final String SCOPE_CLOSE = "</scope>\n";
    static final String DAY_CLOSE = "</day>\n";
    static final String STATE_OPEN = "<state_context>\n";
    static final String STATE_CLOSE = "</state_context>\n";
    /** Appended to a memory cut to the per-item cap. */
    public static final String TRUNCATION_MARKER = " [\u2026truncated]";
    /** Put before a memory cut around its passage on the query ({@link MatchingPassage}), leaving out its beginning. */
    public static final String LEADING_MARKER = "[\u2026] ";

    private static final DateTimeFormatter DATE = DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC);

    private ContextEnvelope() {}

    /** How many days back a memory's date also says how long ago it was: beyond two weeks the date says enough. */
    static final int MOST_DAYS_AGO = 13;

    static String memory(Memory m, String text) {
        return memory(m, text, null);
    }

    /**
     * The envelope's opening tag: with the day the turn is about ({@code today}, as {@link #appendDate} writes it) when
     * an item is dated by how long ago it was, so the reader can tell the day; else {@link #OPEN}.
     */
    public static String open(String today) {
        return today == null ? OPEN : "<memory_context today=\"" + today + "\">\n";
    }

    /** A state value as an item of the state section; {@code value} is the whole value or a cut of it. */
    static String state(String key, String value) {
        StringBuilder sb = new StringBuilder(value.length() + key.length() + 32).append("<state key=\"");
        appendAttribute(sb, key);
        sb.append("\">");
        appendText(sb, value);
        return sb.append("</state>\n").toString();
    }

    /** The heading of a scope's items, when a turn groups them by scope. */
    static String scopeOpen(dev.memfas.Scope scope) {
        StringBuilder sb = new StringBuilder(32).append("<scope name=\"");
        appendAttribute(sb, scope.toString());
        return sb.append("\">\n").toString();
    }

    /**
     * The heading of the relevant items of one source written on one day: the day as an item would say it ({@code age}
     * words, else the date), and the source unless it is the default one.
     */
    static String dayOpen(String source, String day) {
        StringBuilder sb = new StringBuilder(48).append("<day date=\"").append(day);
        if (!source.equals(Memory.DEFAULT_SOURCE)) {
            sb.append("\" source=\"");
            appendAttribute(sb, source);
        }
        return sb.append("\">\n").toString();
    }

    /** The memory as an item with the given text, dated by how long ago it was ({@link #age}) if that is not null. */
    static String memory(Memory m, String text, String age) {
        StringBuilder sb = new StringBuilder(text.length() + 80);
        appendMemory(sb, m, text, age);
        return sb.toString();
    }

    /** The memory as an item under its day's heading ({@link #dayOpen}): without its source and date. */
    static String undated(Memory m, String text) {
        StringBuilder sb = new StringBuilder(text.length() + 40);
        appendMemory(sb, m, text, null, false);
        return sb.toString();
    }

    /** The memory as a {@code <memory>} item without its source and date, as under a heading if it is no line. */
    static String undatedTag(Memory m, String text) {
        StringBuilder sb = new StringBuilder(text.length() + 40);
        appendMemory(sb, m, text, null, false, false);
        return sb.toString();
    }

    /**
     * Whether the memory, under its day's heading, is written as a line, {@code [id] text}, instead of a
     * {@code <memory id="...">} item: when its id is all that is left to say (it has no {@code valid-until} or
     * {@code superseded-by}), its id has no character but letters, digits and {@code - _ . : # / @ +}, and the text
     * shown has no line break. So a line of a day that opens with a bracket is always an item, and no text can pass
     * for one. On LoCoMo's turns a line's label is 4 tokens where the tag's was 11.
     */
    static boolean asLine(Memory m, String text) {
        if (m.validUntil() != null || m.supersededBy() != null) {
            return false;
        }
        String id = m.id();
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!Character.isLetterOrDigit(c) && "-_.:#/@+".indexOf(c) < 0) {
                return false;
            }
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            // Line feed, vertical tab, form feed, carriage return; next line; line and paragraph separators.
            if (c >= 0x0A && c <= 0x0D || c == 0x85 || c == 0x2028 || c == 0x2029) {
                return false;
            }
        }
        return !id.isEmpty();
    }

    /** The UTC calendar day of an instant, in days since 1970-01-01: the day its date is written as. */
    public static long utcDay(Instant instant) {
        return Math.floorDiv(instant.getEpochSecond(), 86_400L);
    }

    /**
     * How long before {@code at} a memory dated {@code createdAt} is, in words, counted in UTC calendar days as the date
     * is written: {@code today}, {@code yesterday} or {@code N days ago}; null when it is more than
     * {@value #MOST_DAYS_AGO} days ago or after {@code at}.
     */
    public static String age(Instant createdAt, Instant at) {
        long days = utcDay(at) - utcDay(createdAt);
        if (days < 0 || days > MOST_DAYS_AGO) {
            return null;
        }
        return days == 0 ? "today" : days == 1 ? "yesterday" : DAYS_AGO[(int) days];
    }

    private static final String[] DAYS_AGO = new String[MOST_DAYS_AGO + 1];

    static {
        for (int d = 2; d <= MOST_DAYS_AGO; d++) {
            DAYS_AGO[d] = d + " days ago";
        }
    }

    /** Appends the memory as an item with the given text (its own, or a cut of it), as {@link #memory} returns it. */
    static void appendMemory(StringBuilder sb, Memory m, String text, String age) {
        appendMemory(sb, m, text, age, true);
    }

    /**
     * Appends the memory as an item, with its source and date ({@code dated}) or without them, as its day's heading
     * says them.
     */
    static void appendMemory(StringBuilder sb, Memory m, String text, String age, boolean dated) {
        appendMemory(sb, m, text, age, dated, true);
    }

    /**
     * As {@link #appendMemory(StringBuilder, Memory, String, String, boolean)}; {@code lines}: whether an undated item
     * may be a line.
     */
    private static void appendMemory(StringBuilder sb, Memory m, String text, String age, boolean dated,
            boolean lines) {
        if (!dated && lines && asLine(m, text)) {
            sb.append('[').append(m.id()).append("] ");
            if (Kinds.saysAvoid(m)) {
                sb.append(Kinds.AVOID);
            }
            appendText(sb, text);
            sb.append('\n');
            return;
        }
        sb.append("<memory id=\"");
        appendAttribute(sb, m.id());
        if (dated && !m.source().equals(Memory.DEFAULT_SOURCE)) {
            // The default source says nothing; leaving it out saves about four tokens per item.
            sb.append("\" source=\"");
            appendAttribute(sb, m.source());
        }
        if (dated) {
            sb.append("\" date=\"");
            if (age != null) {
                sb.append(age);
            } else {
                appendDate(sb, m.createdAt());
            }
        }
        if (m.validUntil() != null) {
            // Only memories that say when they stopped being true pay for these: a reader must not take them as
            // current, and must be able to find what replaced them.
            sb.append("\" valid-until=\"");
            appendDate(sb, m.validUntil());
        }
        if (m.supersededBy() != null) {
            sb.append("\" superseded-by=\"");
            appendAttribute(sb, m.supersededBy());
        }
        sb.append("\">");
        if (Kinds.saysAvoid(m)) {
            sb.append(Kinds.AVOID);
        }
        appendText(sb, text);
        sb.append("</memory>\n");
    }

    /** The UTC date as {@code yyyy-MM-dd}, as {@link DateTimeFormatter#ISO_LOCAL_DATE} writes it, without its cost. */
    public static void appendDate(StringBuilder sb, Instant instant) {
        LocalDate date = LocalDate.ofEpochDay(utcDay(instant));
        int year = date.getYear();
        if (year < 1000 || year > 9999) {
            sb.append(DATE.format(instant));
            return;
        }
        sb.append(year).append('-');
        twoDigits(sb, date.getMonthValue());
        sb.append('-');
        twoDigits(sb, date.getDayOfMonth());
    }

    private static void twoDigits(StringBuilder sb, int value) {
        sb.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }

    static String hint(Trigger t) {
        StringBuilder sb = new StringBuilder(t.hint().length() + 40);
        sb.append("<hint trigger=\"");
        appendAttribute(sb, t.keyword());
        sb.append("\">");
        appendText(sb, t.hint());
        return sb.append("</hint>\n").toString();
    }

    private static void appendText(StringBuilder sb, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                default -> sb.append(c);
            }
        }
    }

    private static void appendAttribute(StringBuilder sb, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\n' -> sb.append("&#10;");
                case '\r' -> sb.append("&#13;");
                default -> sb.append(c);
            }
        }
    }
}
