package dev.memfas.core.turn;

import dev.memfas.core.text.TextAnalyzer;
import java.util.Locale;
import java.util.Map;

/**
 * The session topic's weighted words ({@link SessionState#advance}), and how much of them a memory's text holds: the
 * topic factor of a turn without an embedder.
 *
 * <p>A text is read word by word ({@link TextAnalyzer#scan}) and each word looked up as it passes, without building
 * the text's word list: every candidate's text is read in every turn, and on LongMemEval's haystacks building those
 * lists, a string for each word and a set of them, was three quarters of such a turn's time and allocated 3.4 GB
 * in one evaluation run (JFR). A word of ASCII letters and digits, the most, is lower-cased and hashed in place and
 * compared with the terms' chars; any other word is lower-cased as a string, as {@link TextAnalyzer#words} does.
 *
 * <p>Immutable and thread-safe.
 */
public final class TopicTerms {
    private final String[] terms;
    private final double[] termWeights;
    /** Open addressing: each slot holds a term's index plus one, or 0; its size a power of two, at least twice theirs. */
    private final int[] slots;

    /** @param weights each word's weight, the word lower-cased as {@link TextAnalyzer#words} gives it; read once */
    public TopicTerms(Map<String, Double> weights) {
        this.terms = weights.keySet().toArray(new String[0]);
        this.termWeights = new double[terms.length];
        this.slots = new int[Integer.highestOneBit(Math.max(1, terms.length) * 2) * 2];
        for (int t = 0; t < terms.length; t++) {
            termWeights[t] = weights.get(terms[t]);
            int s = terms[t].hashCode() & (slots.length - 1);
            while (slots[s] != 0) {
                s = (s + 1) & (slots.length - 1);
            }
            slots[s] = t + 1;
        }
    }

    /** The summed weights of the terms the text holds, each counted once however often it appears. */
    public double overlap(String text) {
        if (terms.length == 0) {
            return 0;
        }
        boolean[] seen = new boolean[terms.length];
        double[] sum = new double[1];
        TextAnalyzer.scan(text, (chars, length, ascii) -> {
            int t = ascii ? indexOfAscii(chars, length) : indexOf(new String(chars, 0, length).toLowerCase(Locale.ROOT));
            if (t >= 0 && !seen[t]) {
                seen[t] = true;
                sum[0] += termWeights[t];
            }
        });
        return sum[0];
    }

    /** The index of the term the ASCII word is, lower-cased, or -1; the hash is {@link String#hashCode}'s. */
    private int indexOfAscii(char[] chars, int length) {
        int h = 0;
        for (int i = 0; i < length; i++) {
            h = 31 * h + lower(chars[i]);
        }
        for (int s = h & (slots.length - 1); slots[s] != 0; s = (s + 1) & (slots.length - 1)) {
            String term = terms[slots[s] - 1];
            if (term.length() == length && sameLowerCase(term, chars, length)) {
                return slots[s] - 1;
            }
        }
        return -1;
    }

    private int indexOf(String word) {
        for (int s = word.hashCode() & (slots.length - 1); slots[s] != 0; s = (s + 1) & (slots.length - 1)) {
            if (terms[slots[s] - 1].equals(word)) {
                return slots[s] - 1;
            }
        }
        return -1;
    }

    private static boolean sameLowerCase(String term, char[] chars, int length) {
        for (int i = 0; i < length; i++) {
            if (term.charAt(i) != lower(chars[i])) {
                return false;
            }
        }
        return true;
    }

    private static char lower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
    }
}
