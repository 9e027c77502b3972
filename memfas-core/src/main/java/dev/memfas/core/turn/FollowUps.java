package dev.memfas.core.turn;

import dev.memfas.core.text.TextAnalyzer;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A query that names almost nothing, at most {@value #MAX_WORDS} word that is not a stop word ("Tell me more about
 * that.", "And her sister?", "Why?"), is a follow-up: given its recent history, it is read with its conversation, by
 * meaning (its embedding blended with the history's, the history at {@value #HISTORY_WEIGHT} times its weight and
 * read with its authors' names as "someone", as the query is: {@link QueryEmbedder}), by words (the keyword search
 * reads the history's words after its own, the latest message first) and by whom the history names
 * ({@link AuthorNames#readFollowingHistory}). Any other query is read alone, whatever came before it. A follow-up
 * asked without a history, in a session, is read with the session's latest queries if it names nothing or points back
 * ({@link #leansOnWhatCameBefore}).
 *
 * <p>Measured with {@code EvalMain --history follow-up} (each question's evidence asked for by "Tell me more about
 * that." with the question as history): at 1,024 tokens LoCoMo's follow-ups found .048 of the evidence read alone,
 * .503 read with the history by meaning, .757 by meaning and words; LongMemEval's .000, .489 and .861. History by
 * meaning at half weight gave .313 on LoCoMo, at a quarter .134. No question of either dev set is that short, so
 * none asked after another (`--history previous`) is read differently; a rule of two words instead would read
 * "What is the capital of France?" with the question before it (general questions then filled 12% of the budget
 * instead of 5%, and LoCoMo's questions lost .003 at 1,024).
 */
public final class FollowUps {
    /** The most words, stop words aside, of a query read with its conversation. */
    static final int MAX_WORDS = 1;
    /**
     * How much the recent history counts against a follow-up's own words in the vector it is read by: four times, so
     * that a follow-up's one word ("Tell me more about that.": "tell") leans the vector a fifth of the way, not half.
     * With the history's names read as the query's are and its authors carried, LoCoMo's dev questions asked as "Tell
     * me more about that." after the question (`EvalMain --history follow-up-session`) find .768 / .857 / .892 / .933
     * of the evidence at 512 to 4,096 tokens at 4, .768 / .856 / .893 / .935 at 2, .730 / .825 / .880 / .932 at 1
     * (the question asked alone: .804 / .871 / .915 / .936); and a follow-up to a general question ("What is the
     * capital of France?") fills .156 of a 512-token budget at 4, .535 at 2, .967 at 1 (measured when the relevance
     * gate read the blend alone; now such a follow-up must meet its floors by its history's latest exchange too, and
     * fills none: {@link RelevanceGate}).
     */
    static final float HISTORY_WEIGHT = 4.0f;
    /** Words by which a query points back at what was said before it. */
    private static final Set<String> POINTING_BACK = Set.of("it", "its", "that", "this", "these", "those", "there",
            "then", "other", "else");

    private FollowUps() {}

    /** Whether the query names too little to be read alone, and has a history to be read with. */
    public static boolean isFollowUp(String query, List<String> history) {
        return !history.isEmpty() && namesAlmostNothing(query);
    }

    /**
     * Whether a query asked without a history of its own leans on what its session asked before: it names nothing
     * ("Why?", "And then?"), or names almost nothing and points back ("Tell me more about that.", "What about the
     * other one?"), or refers to someone by a pronoun ({@link AuthorNames#readFollowingHistory}). A short question
     * that stands on its own ("Which pet do I have?") is read alone: only a caller that passes a history says what
     * came before it.
     */
    public static boolean leansOnWhatCameBefore(String query) {
        List<String> words = TextAnalyzer.words(query);
        return words.isEmpty() || words.size() <= MAX_WORDS && hasAnyWord(query, POINTING_BACK)
                || AuthorNames.refersToSomeone(query);
    }

    /** Whether the text has one of these lower-case words, as a whole word in any case. */
    static boolean hasAnyWord(String text, Set<String> words) {
        for (String word : text.toLowerCase(Locale.ROOT).split("[^\\p{L}]+")) {
            if (words.contains(word)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a query names at most {@value #MAX_WORDS} word that is not a stop word. */
    public static boolean namesAlmostNothing(String query) {
        return TextAnalyzer.words(query).size() <= MAX_WORDS;
    }

    /** The text a follow-up is searched by in words: its query, then its history, latest message first. */
    public static String searchText(String query, List<String> history) {
        StringBuilder text = new StringBuilder(query);
        for (int i = history.size() - 1; i >= 0; i--) {
            text.append('\n').append(history.get(i));
        }
        return text.toString();
    }
}
