package dev.memfas.core.turn;

/**
 * Which retrieved memories a turn may take, as its {@link RelevanceGate} decides: all of them, only its best match by
 * meaning and the other matches that also share a word with the query, or none. Pinned and trigger-linked memories
 * are not retrieved and are never held back by it.
 *
 * @param bestCosine a memory at this cosine with the query or above may be taken on meaning alone: negative infinity
 *     for all (a memory without a vector included), positive infinity for none
 * @param matchCosine a memory at this cosine or above may be taken if the keyword search found it too (positive
 *     infinity for none)
 */
public record Admission(double bestCosine, double matchCosine) {
    /** Everything the ranking offers. */
    public static final Admission ALL = new Admission(Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY);
    /** Nothing retrieved: the turn has nothing relevant. */
    static final Admission NONE = new Admission(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);

    /**
     * The memory whose cosine with the query is {@code best} (and any tied with it), and the matches at the relevance
     * {@code floor} or above that share a word with the query; nothing to pad them.
     */
    static Admission bestAndWordMatches(double best, double floor) {
        return new Admission(best, floor);
    }

    /** Whether any retrieved memory may be taken. */
    public boolean any() {
        return bestCosine != Double.POSITIVE_INFINITY;
    }

    /** Whether every retrieved memory may be taken, so memories stored next to the best may join them. */
    public boolean all() {
        return bestCosine == Double.NEGATIVE_INFINITY;
    }

    /** Whether candidate {@code i} may be taken. */
    public boolean admits(CandidateSet candidates, int i) {
        if (all()) {
            return true;
        }
        float cosine = candidates.cosine(i);
        return cosine >= bestCosine || cosine >= matchCosine && candidates.bm25(i) > 0;
    }
}
