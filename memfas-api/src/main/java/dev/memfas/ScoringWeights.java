package dev.memfas;

/**
 * How much each factor counts in a memory's score. A memory's score is the weighted mean of its factors (see
 * {@link dev.memfas.ScoreBreakdown}) over the factors that apply this turn: {@code semantic} needs an embedder and
 * {@code hot} needs a session, so without them their weight is left out of the mean (in a context a long memory then
 * scores a little less: {@link dev.memfas.ScoreBreakdown}).
 *
 * <p>Weights are non-negative and need not sum to 1. Immutable.
 *
 * @param semantic query-memory embedding similarity
 * @param lexical BM25 match with the query
 * @param recency how recent the memory's own time is
 * @param frequency how often the memory was used
 * @param topic coherence with the session's topic
 * @param scope match with the caller's project and language
 * @param priority pinned or important memories
 * @param hot memories already included repeatedly in the session
 */
public record ScoringWeights(
        double semantic,
        double lexical,
        double recency,
        double frequency,
        double topic,
        double scope,
        double priority,
        double hot) {

    /**
     * The defaults: relevance first (semantic 0.60, lexical 0.25), then 0.05 for each context factor. Chosen with the
     * evaluation runner (see docs/experiments.md): more weight on relevance and less on recency found more evidence at
     * every budget, without taking recency out.
     */
    public static final ScoringWeights DEFAULT = new ScoringWeights(0.60, 0.25, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05);

    /**
     * Checks every weight is a finite, non-negative number and at least one is positive.
     *
     * @throws IllegalArgumentException naming the first weight that is not
     */
    public ScoringWeights {
        check("semantic", semantic);
        check("lexical", lexical);
        check("recency", recency);
        check("frequency", frequency);
        check("topic", topic);
        check("scope", scope);
        check("priority", priority);
        check("hot", hot);
        if (semantic + lexical + recency + frequency + topic + scope + priority + hot == 0) {
            throw new IllegalArgumentException("at least one scoring weight must be positive: all are 0");
        }
    }

    private static void check(String name, double w) {
        if (!(w >= 0) || Double.isInfinite(w)) {
            throw new IllegalArgumentException(name + " weight must be finite and non-negative: " + w);
        }
    }
}
