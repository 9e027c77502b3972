package dev.memfas.internal;

import java.util.Set;

/**
 * The English stop words memfas's lexical search leaves out of queries and documents: the in-memory BM25 index, the
 * SQLite store's full-text query, and any store that searches text itself and should rank as they do. Lower case;
 * the contraction tails ({@code s}, {@code t}, {@code ll}, ...) are in it, as a tokenizer that splits at apostrophes
 * meets them as words. Not part of the API: exported to memfas's own modules only.
 */
public final class StopWords {
    /** The words, lower case. Immutable. */
    public static final Set<String> ENGLISH = Set.of(
            "a", "about", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be",
            "been", "before", "being", "both", "but", "by", "can", "could", "did", "do", "does", "doing", "done",
            "for", "from", "had", "has", "have", "having", "he", "her", "here", "hers", "him", "his", "how", "i",
            "if", "in", "into", "is", "it", "its", "just", "me", "more", "most", "my", "no", "nor", "not", "now",
            "of", "off", "on", "once", "only", "or", "other", "our", "ours", "out", "over", "own", "same", "she",
            "should", "so", "some", "such", "than", "that", "the", "their", "theirs", "them", "then", "there",
            "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "very", "was", "we",
            "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would",
            "you", "your", "yours", "s", "t", "d", "ll", "m", "re", "ve");

    private StopWords() {}

    /** Whether the word, already lower-cased, is a stop word. */
    public static boolean isStopWord(String lowerCaseWord) {
        return ENGLISH.contains(lowerCaseWord);
    }
}
