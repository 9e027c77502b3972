package dev.memfas.core.envelope;

import dev.memfas.internal.PorterStemmer;
import dev.memfas.core.text.TextAnalyzer;
import dev.memfas.internal.StopWords;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Where a long memory's passage on the turn's query lies, so that a memory cut to the per-item cap keeps the part the
 * query is about rather than only its beginning ({@link ItemRenderer}). A chat reply of a few hundred tokens cut
 * to a fifth of a 1,024-token budget kept its first 700 or so characters, and on LongMemEval the answer to a question
 * about what the assistant said lay past them in 3 of 7 such questions at 1,024 tokens and in nearly all at 512
 * (docs/experiments.md).
 *
 * <p>The passage is the sentence that holds the most of the query's search terms (stemmed, stop words left out, as the
 * keyword search reads them), each term weighted as the keyword search weighs a word among documents, here among the
 * memory's sentences: {@code ln((sentences + 1) / sentences holding it)}, so that a name the whole memory repeats (a
 * case summary's parties, in every other sentence) counts for less than the word only the answer's sentence has. The
 * earliest of equals wins. Only a passage that ends past where a cut from the start would end moves the cut: a memory
 * whose beginning matches as well as any later sentence keeps its beginning, which says what it is about.
 *
 * <p>Holds one turn's query terms, read when first needed (most turns cut nothing). Kept by a
 * {@link BudgetFiller.Scratch}; not thread-safe.
 */
public final class MatchingPassage {
    private String query = "";
    private Set<String> terms;
    /**
     * The first two characters of each term ({@link #leading}): stemming keeps a word's first two (so it did for the
     * 59,902 distinct words of both evaluation sets' dev turns, but "ies"), so a word whose first two are none of
     * these is no term, and is not stemmed.
     */
    private final Set<Integer> leadingPairs = new HashSet<>();

    /**
     * How far into a memory its passage is looked for, in characters: a memory may hold up to a million, read anew in
     * every turn that cuts it (about 26 ns a character here, so 0.85 ms for this many); a passage further on is not
     * found, and the memory is cut from its start.
     */
    static final int MOST_CHARS_READ = 32_768;

    /** Starts a turn: the text it is searched by, whose terms are read when a memory is first cut. */
    void reset(String query) {
        this.query = query;
        this.terms = null;
        this.leadingPairs.clear();
    }

    /** Where a passage lies in its memory's text: from {@code start} to {@code end}. */
    record Span(int start, int end) {}

    /**
     * Where in {@code text} the passage on the query lies, if it ends after {@code prefixEnd} (where a cut from the
     * start would end); else null, for a cut from the start.
     */
    Span find(String text, int prefixEnd) {
        if (terms == null) {
            terms = new HashSet<>(TextAnalyzer.terms(query));
            terms.forEach(t -> leadingPairs.add(leading(t)));
        }
        if (terms.isEmpty()) {
            return null;
        }
        List<int[]> sentences = new ArrayList<>();
        List<Set<String>> matched = new ArrayList<>();
        Map<String, Integer> sentencesWith = new HashMap<>();
        int limit = Math.min(text.length(), MOST_CHARS_READ);
        for (int start = 0; start < limit; start = skipSpace(text, sentences.get(sentences.size() - 1)[1])) {
            int end = sentenceEnd(text, start, limit);
            if (end == limit && limit < text.length()) {
                break; // a sentence the limit cuts is not read
            }
            Set<String> found = matches(text.substring(start, end));
            sentences.add(new int[] {start, end});
            matched.add(found);
            found.forEach(t -> sentencesWith.merge(t, 1, Integer::sum));
        }
        int best = -1;
        double bestWeight = 0;
        for (int i = 0; i < sentences.size(); i++) {
            double weight = 0;
            for (String t : matched.get(i)) {
                weight += Math.log((sentences.size() + 1.0) / sentencesWith.get(t));
            }
            if (weight > bestWeight) {
                bestWeight = weight;
                best = i;
            }
        }
        return best < 0 || sentences.get(best)[1] <= prefixEnd ? null
                : new Span(sentences.get(best)[0], sentences.get(best)[1]);
    }

    /** The start of the first sentence of {@code text} that begins at {@code from} or after it. */
    static int sentenceStartFrom(String text, int from) {
        int start = 0;
        while (start < from) {
            start = skipSpace(text, sentenceEnd(text, start));
        }
        return start;
    }

    /**
     * The query's terms the sentence holds. A word is made a string, and stemmed, only if its first two characters may
     * begin a term: most words of a long reply are passed over in the scanner's buffer.
     */
    private Set<String> matches(String sentence) {
        Set<String> found = new HashSet<>();
        TextAnalyzer.scan(sentence, (chars, length, ascii) -> {
            if (ascii && !leadingPairs.contains(leadingAscii(chars, length))) {
                return;
            }
            String w = new String(chars, 0, length).toLowerCase(Locale.ROOT);
            if (!StopWords.isStopWord(w) && leadingPairs.contains(leading(w))) {
                String term = PorterStemmer.stem(w);
                if (terms.contains(term)) {
                    found.add(term);
                }
            }
        });
        return found;
    }

    /** {@link #leading} of an ASCII word as written, lower-cased. */
    private static int leadingAscii(char[] chars, int length) {
        char first = Character.toLowerCase(chars[0]);
        if (length < 2) {
            return first;
        }
        char second = Character.toLowerCase(chars[1]);
        return first << 16 | (second == 'y' ? 'i' : second);
    }

    /**
     * A word's first two characters as one number (its only one, for a word of one), a second {@code y} read as
     * {@code i}: the stemmer turns a {@code y} after a vowel into {@code i} when it ends the stem ("eyed" to "ei").
     */
    static int leading(String word) {
        if (word.length() < 2) {
            return word.charAt(0);
        }
        char second = word.charAt(1) == 'y' ? 'i' : word.charAt(1);
        return word.charAt(0) << 16 | second;
    }

    /**
     * Where the sentence that begins at {@code from} ends: after a full stop, question or exclamation mark followed
     * by white space, or at a line break (a list's items are sentences), as {@link ItemRenderer#cutAtBoundary} reads
     * them; else at the end of the text. The stop after a list item's number ("2. ") ends no sentence.
     */
    static int sentenceEnd(String text, int from) {
        return sentenceEnd(text, from, text.length());
    }

    /** {@link #sentenceEnd(String, int)}, read no further than {@code limit}: a sentence open there ends there. */
    private static int sentenceEnd(String text, int from, int limit) {
        boolean digitsOnly = true;
        for (int i = from; i < limit; i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                return i + 1;
            }
            if ((c == '.' || c == '!' || c == '?' || c == '\u3002')
                    && (i + 1 == text.length() || Character.isWhitespace(text.charAt(i + 1)))
                    && !(c == '.' && digitsOnly && i > from)) {
                return i + 1;
            }
            digitsOnly &= Character.isDigit(c);
        }
        return limit;
    }

    private static int skipSpace(String text, int from) {
        int i = from;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        return i;
    }
}
