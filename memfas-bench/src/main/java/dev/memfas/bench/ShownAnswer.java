package dev.memfas.bench;

import java.util.Locale;
import java.util.Map;

/**
 * Whether a context shows a question's answer, for the questions whose answer is written out in one of their evidence
 * turns. Evidence recall counts a turn as found when the context includes it, cut or whole; a long turn cut to the
 * per-item cap may still leave its answer out, and this is the measure that sees it.
 *
 * <p>The answer is looked for as the data writes it, less a final period, ignoring case, and only as whole words (a
 * letter or digit on either side is a different word): "2014" is not found in "20145". Answers shorter than
 * {@link #SHORTEST} characters are not looked for: "7" or "yes" would be found in almost any context.
 */
final class ShownAnswer {
    /** The shortest answer looked for. */
    static final int SHORTEST = 4;

    private ShownAnswer() {}

    /**
     * The answer to look for in a context, lower-cased, or null when the question has no answer of at least
     * {@link #SHORTEST} characters written out in one of its evidence turns.
     *
     * @param textOf each turn's text by id
     */
    static String of(EvalData.Question q, Map<String, String> textOf) {
        String answer = q.answer().strip();
        if (answer.endsWith(".")) {
            answer = answer.substring(0, answer.length() - 1).strip();
        }
        if (answer.length() < SHORTEST) {
            return null;
        }
        String needle = answer.toLowerCase(Locale.ROOT);
        for (String id : q.evidence()) {
            String text = textOf.get(id);
            if (text != null && in(needle, text)) {
                return needle;
            }
        }
        return null;
    }

    /** Whether {@code text} holds {@code needle} (lower-cased) as whole words, ignoring case. */
    static boolean in(String needle, String text) {
        String haystack = text.toLowerCase(Locale.ROOT);
        for (int at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
            int end = at + needle.length();
            boolean startsWord = at == 0 || !Character.isLetterOrDigit(haystack.charAt(at - 1))
                    || !Character.isLetterOrDigit(needle.charAt(0));
            boolean endsWord = end == haystack.length() || !Character.isLetterOrDigit(haystack.charAt(end))
                    || !Character.isLetterOrDigit(needle.charAt(needle.length() - 1));
            if (startsWord && endsWord) {
                return true;
            }
        }
        return false;
    }

    /**
     * A context's text as its memories wrote it: the envelope escapes {@code &}, {@code <} and, in attributes,
     * {@code "} and line breaks.
     */
    static String unescape(String context) {
        if (context.indexOf('&') < 0) {
            return context;
        }
        return context.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#10;", "\n")
                .replace("&#13;", "\r").replace("&amp;", "&");
    }
}
