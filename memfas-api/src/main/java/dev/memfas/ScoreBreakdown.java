package dev.memfas;

/**
 * How one memory's score was made: each factor normalized to [0, 1] across the turn's candidates, before weighting.
 *
 * <p>The score of a memory is the weighted mean of the first eight factors (weights are the curator's; a factor that
 * cannot be computed, such as {@code semantic} without an embedder, has weight 0), or its {@code neighbor} score if
 * that is higher. In a context, a memory whose item takes more than 100 tokens then scores that times
 * (100 / its tokens)<sup>0.3</sup>, so that it ranks by what it costs the budget too (docs/scoring.md). Immutable.
 *
 * @param semantic cosine similarity between the query and the memory, raised by a tenth of its day's (the mean of the
 *     best three cosines of its source's candidates of its UTC day) and by 0.05 if the query names its author,
 *     min-max normalized over the candidates
 * @param lexical BM25 relevance of the memory to the query, divided by the best candidate's
 * @param recency exponential decay of the memory's age (from its {@code createdAt}/{@code updatedAt}) with the
 *     curator's half-life, divided by the newest candidate's
 * @param frequency log-scaled access count, divided by the most accessed candidate's
 * @param topic similarity to the session's current topic
 * @param scope how specific the memory's scope is to the caller's project, task and language (1 the project's task,
 *     0.9 the project, 0.7 the language, 0.4 universal or unknown; memories of another project or language are left
 *     out; docs/scopes.md)
 * @param priority 1 for a pinned memory, otherwise its importance
 * @param hot 1 if the memory was already included at least twice in this session, else 0
 * @param neighbor the score carried over from one of the turn's best matches stored next to this memory: that
 *     match's score times 0.8 next to it, and 0.95 of that per further step (0.76 two away), or 0 if the memory is
 *     not such a neighbor
 */
public record ScoreBreakdown(
        double semantic,
        double lexical,
        double recency,
        double frequency,
        double topic,
        double scope,
        double priority,
        double hot,
        double neighbor) {

    /** A breakdown with every factor 0. */
    public static final ScoreBreakdown ZERO = new ScoreBreakdown(0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** This breakdown with another {@code neighbor} score. */
    public ScoreBreakdown withNeighbor(double score) {
        return new ScoreBreakdown(semantic, lexical, recency, frequency, topic, scope, priority, hot, score);
    }
}
