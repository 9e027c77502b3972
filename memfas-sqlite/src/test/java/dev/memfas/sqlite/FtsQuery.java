package dev.memfas.sqlite;

import dev.memfas.internal.StopWords;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The FTS5 query the store's search once ran, which its own full-text index must rank as FTS5 does
 * ({@link FullTextParityTest}). Turns free text into an FTS5 query that cannot be a syntax error: the text's words (runs of letters and digits,
 * lower-cased, English stop words dropped), each as a quoted string, joined with {@code OR} so BM25 ranks by how many
 * and how rare the matched words are. Operators, quotes, parentheses and column filters in the text are never
 * interpreted.
 */
final class FtsQuery {
    private static final int MAX_TERMS = 64;

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
            if (!StopWords.isStopWord(w) && words.size() < MAX_TERMS) {
                words.add(w);
            }
            word.setLength(0);
        }
    }
}
