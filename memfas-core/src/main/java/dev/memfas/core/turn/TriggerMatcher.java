package dev.memfas.core.turn;

import dev.memfas.Trigger;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Finds the triggers whose keyword occurs in a query as a whole word or phrase, ignoring case: {@code work} fires on
 * "Work on it" but not on "network" or "workflow". Whitespace inside a phrase matches any run of whitespace. At an
 * edge formed by a CJK ideograph or kana no word boundary is required, since those scripts don't space words.
 *
 * <p>Immutable and thread-safe.
 */
public final class TriggerMatcher {
    private static final String WORD_CHAR = "[\\p{L}\\p{N}_]";

    private final List<Trigger> triggers;
    private final List<Pattern> patterns;

    public TriggerMatcher(List<Trigger> triggers) {
        this.triggers = List.copyOf(triggers);
        List<Pattern> compiled = new ArrayList<>(triggers.size());
        for (Trigger t : triggers) {
            compiled.add(compile(t.keyword()));
        }
        this.patterns = List.copyOf(compiled);
    }

    static Pattern compile(String keyword) {
        String[] words = keyword.strip().split("\\s+");
        StringBuilder regex = new StringBuilder();
        if (!isIdeographic(keyword.codePointAt(0))) {
            regex.append("(?<!").append(WORD_CHAR).append(')');
        }
        for (int i = 0; i < words.length; i++) {
            if (i > 0) {
                regex.append("\\s+");
            }
            regex.append(Pattern.quote(words[i]));
        }
        if (!isIdeographic(keyword.codePointBefore(keyword.length()))) {
            regex.append("(?!").append(WORD_CHAR).append(')');
        }
        return Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    }

    private static boolean isIdeographic(int cp) {
        Character.UnicodeScript s = Character.UnicodeScript.of(cp);
        return s == Character.UnicodeScript.HAN || s == Character.UnicodeScript.HIRAGANA
                || s == Character.UnicodeScript.KATAKANA;
    }

    /** The triggers that fire on the text, in the order they were added. */
    public List<Trigger> match(String text) {
        List<Trigger> fired = new ArrayList<>();
        for (int i = 0; i < triggers.size(); i++) {
            if (patterns.get(i).matcher(text).find()) {
                fired.add(triggers.get(i));
            }
        }
        return fired;
    }
}
