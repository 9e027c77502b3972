package dev.memfas.core;

/**
 * A turn's embeddings, unit length: what candidates are found and scored by (the query's own, or for a follow-up that
 * names almost nothing, the query read with the recent history: {@link FollowUps}) and the turn's (the query
 * blended with the recent history, what the session topic follows). Both null without an embedder.
 *
 * @param namesAuthor whether the query named an author of the namespace's memories, read as "someone" in both
 *     ({@link AuthorNames})
 */
record QueryVectors(float[] query, float[] turn, boolean namesAuthor) {
    static final QueryVectors NONE = new QueryVectors(null, null, false);
}
