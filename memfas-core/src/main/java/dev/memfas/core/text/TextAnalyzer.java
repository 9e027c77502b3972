package dev.memfas.core.text;

import dev.memfas.internal.PorterStemmer;
import dev.memfas.internal.StopWords;
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
public final class TextAnalyzer {
    private static final int MAX_TERM_CHARS = 64;

    private TextAnalyzer() {}

    /** The Porter-stemmed search terms of the text, in order, repeats kept. */
    public static List<String> terms(String text) {
        List<String> words = words(text);
        words.replaceAll(PorterStemmer::stem);
        return words;
    }

    /** The words of the text, lower-cased and unstemmed, in order, repeats kept. */
    public static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        scan(text, (chars, length, ascii) -> {
            String w = new String(chars, 0, length).toLowerCase(Locale.ROOT);
            if (!StopWords.isStopWord(w)) {
                out.add(w);
            }
        });
        return out;
    }

    /** Receives the words of a text one by one, as written: not lower-cased, stop words included. */
    public interface WordVisitor {
        /**
         * One word: {@code chars[0, length)}, valid only during the call; {@code ascii} when every char is below 128,
         * so that lower-casing it is mapping {@code A-Z} to {@code a-z}.
         */
        void visit(char[] chars, int length, boolean ascii);
    }

    /**
     * Reads the text's words in order, as {@link #words} splits them, without building a string for each: a
     * word is handed over in a buffer reused for the next.
     */
    public static void scan(String text, WordVisitor visitor) {
        // A code point of two chars appended at MAX_TERM_CHARS - 1 takes the word one char past the limit.
        char[] word = new char[MAX_TERM_CHARS + 1];
        int length = 0;
        boolean ascii = true;
        int i = 0;
        int n = text.length();
        while (i < n) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            if (isIdeographic(cp)) {
                length = flush(word, length, ascii, visitor);
                ascii = true;
                visitor.visit(word, Character.toChars(cp, word, 0), false);
            } else if (Character.isLetterOrDigit(cp)) {
                if (length < MAX_TERM_CHARS) {
                    length += Character.toChars(cp, word, length);
                    ascii &= cp < 128;
                }
            } else if ((cp == '\'' || cp == '\u2019') && length > 0) {
                // "Caroline's" -> "caroline": a possessive or contraction ends the word.
                length = flush(word, length, ascii, visitor);
                ascii = true;
                while (i < n && Character.isLetter(text.codePointAt(i))) {
                    i += Character.charCount(text.codePointAt(i));
                }
            } else {
                length = flush(word, length, ascii, visitor);
                ascii = true;
            }
        }
        flush(word, length, ascii, visitor);
    }

    /**
     * Below U+2E80 (CJK Radicals Supplement) no code point is Han, Hiragana or Katakana. Asking for a code point's
     * script is a search of Unicode's ranges, about 50 ns here; asked of every character of every candidate, it was
     * most of a turn without an embedder on LongMemEval's haystacks.
     */
    public static final int FIRST_IDEOGRAPHIC = 0x2E80;

    private static boolean isIdeographic(int cp) {
        if (cp < FIRST_IDEOGRAPHIC) {
            return false;
        }
        Character.UnicodeScript script = Character.UnicodeScript.of(cp);
        return script == Character.UnicodeScript.HAN
                || script == Character.UnicodeScript.HIRAGANA
                || script == Character.UnicodeScript.KATAKANA;
    }

    /** Hands over the word in the buffer, if any; the buffer's new length, 0. */
    private static int flush(char[] word, int length, boolean ascii, WordVisitor visitor) {
        if (length > 0) {
            visitor.visit(word, length, ascii);
        }
        return 0;
    }
}
