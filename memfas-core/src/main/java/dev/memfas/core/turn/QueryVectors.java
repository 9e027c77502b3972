package dev.memfas.core.turn;

import java.util.List;
import java.util.Set;

/**
 * A turn's embeddings, unit length: what candidates are found and scored by (the query's own, or for a follow-up that
 * names almost nothing, the query read with the recent history: {@link FollowUps}), the turn's (the query blended
 * with the recent history, what the session topic follows), and, for a follow-up read with its history, what it
 * asks about: each message of its history's latest exchange, read as the query is, by which its {@link RelevanceGate}
 * also tells whether anything stored bears on it. Null, and nothing asked about, without an embedder.
 *
 * @param asked for a follow-up read with its history, the unit vectors of its history's latest exchange, latest
 *     first; empty for a turn read by its own query, which asks about what it is read by
 * @param namedAuthors the authors of the namespace's memories the query names, read as "someone" in each
 *     ({@link AuthorNames}); empty if none
 */
public record QueryVectors(float[] query, float[] turn, List<float[]> asked, Set<String> namedAuthors) {
    public static final QueryVectors NONE = new QueryVectors(null, null, List.of(), Set.of());

    /** A turn read by its query alone: the query's vector is what it asks about, and the session follows it. */
    static QueryVectors alone(float[] query, Set<String> namedAuthors) {
        return new QueryVectors(query, query, List.of(), namedAuthors);
    }

    /** Whether the query names an author of the namespace's memories. */
    public boolean namesAuthor() {
        return !namedAuthors.isEmpty();
    }

    /** Whether the turn is a follow-up read with its history, which also asks about its latest exchange. */
    boolean asksAboutHistory() {
        return !asked.isEmpty();
    }
}
