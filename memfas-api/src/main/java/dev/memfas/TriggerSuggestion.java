package dev.memfas;

import java.util.List;
import java.util.Objects;

/**
 * A word that recurs in the queries whose contexts were reported helpful, with the memories those contexts held: a
 * trigger the caller may add ({@link ContextCurator#suggestTriggers}). Never added by itself.
 *
 * @param keyword the word, lower-cased, as a trigger would match it
 * @param queries in how many helpful turns' queries it appeared
 * @param memoryIds the memories reported helpful in those turns, the most often first (at most three)
 */
public record TriggerSuggestion(String keyword, int queries, List<String> memoryIds) {
    /** Copies the list and checks the components. */
    public TriggerSuggestion {
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
