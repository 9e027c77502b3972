package dev.memfas.core.turn;

import java.util.Set;

/**
 * A turn's embeddings, unit length: what candidates are found and scored by (the query's own, or for a follow-up that
 * names almost nothing, the query read with the recent history: {@link FollowUps}) and the turn's (the query
 * blended with the recent history, what the session topic follows). Both null without an embedder.
 *
 * @param namedAuthors the authors of the namespace's memories the query names, read as "someone" in both
 *     ({@link AuthorNames}); empty if none
 */
public record QueryVectors(float[] query, float[] turn, Set<String> namedAuthors) {
    public static final QueryVectors NONE = new QueryVectors(null, null, Set.of());

    /** Whether the query names an author of the namespace's memories. */
    public boolean namesAuthor() {
        return !namedAuthors.isEmpty();
    }
}
