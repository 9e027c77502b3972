package dev.memfas;

import java.util.List;
import java.util.Objects;

/**
 * The triggers of a curator ({@link ContextCurator#triggers()}): keywords that bring their memories into a turn
 * whenever a query names them, and the ones feedback suggests. Thread-safe.
 */
public interface Triggers {
    /** Adds a trigger (in its namespace), replacing one with the same keyword. */
    void add(Trigger trigger);

    /** Removes a trigger from the given namespace; returns whether it existed. */
    boolean remove(String namespace, String keyword);

    /**
     * Suggests triggers learned from feedback: words found in the queries of at least three turns whose included
     * memories were reported helpful ({@link dev.memfas.upkeep.Upkeep#reportUsage}), with the memories reported with
     * them most often, the most frequent word first; words that are triggers already are left out. Nothing is added:
     * add a suggestion with {@code add(suggestion.toTrigger(namespace))}. Learned only where the curator keeps query
     * text (not with {@code redactQueries}).
     *
     * @return at most 20 suggestions; empty before enough feedback
     */
    List<Suggestion> suggest(String namespace);

    /**
     * A word that recurs in the queries whose contexts were reported helpful, with the memories those contexts held: a
     * trigger the caller may add ({@link #suggest}). Never added by itself.
     *
     * @param keyword the word, lower-cased, as a trigger would match it
     * @param queries in how many helpful turns' queries it appeared
     * @param memoryIds the memories reported helpful in those turns, the most often first (at most three)
     */
    record Suggestion(String keyword, int queries, List<String> memoryIds) {
        /** Copies the list and checks the components. */
        public Suggestion {
            Objects.requireNonNull(keyword, "keyword");
            memoryIds = List.copyOf(memoryIds);
            if (queries < 1) {
                throw new IllegalArgumentException("queries must be positive: " + queries);
            }
        }

        /** This suggestion as a trigger with no hint, linking its memories, in the given namespace. */
        public Trigger toTrigger(String namespace) {
            return new Trigger(keyword, "", memoryIds, namespace);
        }
    }
}
