package dev.memfas.sqlite;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Turns free text into an FTS5 query that cannot be a syntax error: the text's words (runs of letters and digits,
 * lower-cased, English stop words dropped), each as a quoted string, joined with {@code OR} so BM25 ranks by how many
 * and how rare the matched words are. Operators, quotes, parentheses and column filters in the text are never
 * interpreted.
 */
final class FtsQuery {
    private static final int MAX_TERMS = 64;
    private static final Set<String> STOP_WORDS = Set.of(
            "a", "about", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be",
            "been", "before", "being", "both", "but", "by", "can", "could", "did", "do", "does", "doing", "done",
            "for", "from", "had", "has", "have", "having", "he", "her", "here", "hers", "him", "his", "how", "i",
            "if", "in", "into", "is", "it", "its", "just", "me", "more", "most", "my", "no", "nor", "not", "now",
            "of", "off", "on", "once", "only", "or", "other", "our", "ours", "out", "over", "own", "same", "she",
            "should", "so", "some", "such", "than", "that", "the", "their", "theirs", "them", "then", "there",
            "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "very", "was", "we",
            "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would",
            "you", "your", "yours", "s", "t", "d", "ll", "m", "re", "ve");

    private FtsQuery() {}

    /** The MATCH expression, or the empty string when the text has no searchable word. */
    static String of(String text) {
        Set<String> words = new LinkedHashSet<>();
        StringBuilder word = new StringBuilder();
        for (int i = 0; i < text.length() && words.size() < MAX_TERMS; ) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            if (Character.isLetterOrDigit(cp)) {
                word.appendCodePoint(cp);
            } else {
                add(word, words);
            }
        }
        add(word, words);
        StringBuilder q = new StringBuilder();
        for (String w : words) {
            if (q.length() > 0) {
                q.append(" OR ");
            }
            q.append('"').append(w).append('"');
        }
        return q.toString();
    }

    private static void add(StringBuilder word, Set<String> words) {
        if (word.length() > 0) {
            String w = word.toString().toLowerCase(Locale.ROOT);
            if (!STOP_WORDS.contains(w) && words.size() < MAX_TERMS) {
                words.add(w);
            }
            word.setLength(0);
        }
    }
}
