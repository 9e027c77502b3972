package dev.memfas.core;

/**
 * A turn's embeddings, unit length: the query's own (what candidates are found and scored by) and the turn's (the
 * query blended with the recent history, what the session topic follows). Both null without an embedder.
 */
record QueryVectors(float[] query, float[] turn) {
    static final QueryVectors NONE = new QueryVectors(null, null);
}
