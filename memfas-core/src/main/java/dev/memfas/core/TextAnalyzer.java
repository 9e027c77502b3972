package dev.memfas.core;

import dev.memfas.StopWords;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits text into words: lower-cased runs of letters and digits, English stop words removed, each CJK ideograph or
 * kana its own word (those scripts do not separate words with spaces). {@link #terms} stems them for BM25 (Porter);
 * {@link #words} keeps them as written, for topic labels.
 *
 * <p>Stateless and thread-safe.
 */
final class TextAnalyzer {
    private static final int MAX_TERM_CHARS = 64;


    private TextAnalyzer() {}

    /** The Porter-stemmed search terms of the text, in order, repeats kept. */
    static List<String> terms(String text) {
        List<String> words = words(text);
        words.replaceAll(PorterStemmer::stem);
        return words;
    }

    /** The words of the text, lower-cased and unstemmed, in order, repeats kept. */
    static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        int i = 0;
        int n = text.length();
        while (i < n) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            if (isIdeographic(cp)) {
                flush(word, out);
                out.add(new String(Character.toChars(cp)));
            } else if (Character.isLetterOrDigit(cp)) {
                if (word.length() < MAX_TERM_CHARS) {
                    word.appendCodePoint(cp);
                }
            } else if ((cp == '\'' || cp == '\u2019') && word.length() > 0) {
                // "Caroline's" -> "caroline": a possessive or contraction ends the word.
                flush(word, out);
                while (i < n && Character.isLetter(text.codePointAt(i))) {
                    i += Character.charCount(text.codePointAt(i));
                }
            } else {
                flush(word, out);
            }
        }
        flush(word, out);
        return out;
    }

    private static boolean isIdeographic(int cp) {
        Character.UnicodeScript script = Character.UnicodeScript.of(cp);
        return script == Character.UnicodeScript.HAN
                || script == Character.UnicodeScript.HIRAGANA
                || script == Character.UnicodeScript.KATAKANA;
    }

    private static void flush(StringBuilder word, List<String> out) {
        if (word.length() == 0) {
            return;
        }
        String w = word.toString().toLowerCase(Locale.ROOT);
        word.setLength(0);
        if (!StopWords.isStopWord(w)) {
            out.add(w);
        }
    }
}
