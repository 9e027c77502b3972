package dev.memfas.core.turn;

import java.util.List;
import java.util.Set;

/**
 * A turn's embeddings, unit length: what candidates are found and scored by (the query's own, or for a follow-up that
 * names almost nothing, the query read with the recent history: {@link FollowUps}), the turn's (the query blended
 * with the recent history, what the session topic follows), and what the turn asks about, by which its
 * {@link RelevanceGate} tells whether anything stored bears on it (the query's own, or for a follow-up each message of
 * its history's latest exchange, read as the query is). Null, and no vector asked by, without an embedder.
 *
 * @param namedAuthors the authors of the namespace's memories the query names, read as "someone" in each
 *     ({@link AuthorNames}); empty if none
 */
public record QueryVectors(float[] query, float[] turn, List<float[]> asked, Set<String> namedAuthors) {
    public static final QueryVectors NONE = new QueryVectors(null, null, List.of(), Set.of());

    /** A turn read by its query alone: the query's vector is what it asks about, and the session follows it. */
    static QueryVectors alone(float[] query, Set<String> namedAuthors) {
        return new QueryVectors(query, query, List.of(query), namedAuthors);
    }

    /** Whether the query names an author of the namespace's memories. */
    public boolean namesAuthor() {
        return !namedAuthors.isEmpty();
    }

    /** Whether the turn is read by another vector than the one it asks about by (a follow-up read with its history). */
    boolean readOtherThanAsked() {
        return query != null && (asked.size() != 1 || asked.get(0) != query);
    }
}
