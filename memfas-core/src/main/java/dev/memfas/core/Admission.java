package dev.memfas.core;

/**
 * Which retrieved memories a turn may take, as its {@link RelevanceGate} decides: all of them, only those that matched
 * the query by meaning (their cosine reaches the relevance floor), or none. Pinned and trigger-linked memories are not
 * retrieved and are never held back by it.
 *
 * @param minCosine the cosine a retrieved memory must reach: negative infinity for all (a memory without a vector
 *     included), positive infinity for none
 */
record Admission(double minCosine) {
    /** Everything the ranking offers. */
    static final Admission ALL = new Admission(Double.NEGATIVE_INFINITY);
    /** Nothing retrieved: the turn has nothing relevant. */
    static final Admission NONE = new Admission(Double.POSITIVE_INFINITY);

    /** Only the memories whose cosine with the query reaches {@code floor}: the matches, and nothing to pad them. */
    static Admission matchesOnly(double floor) {
        return new Admission(floor);
    }

    /** Whether any retrieved memory may be taken. */
    boolean any() {
        return minCosine != Double.POSITIVE_INFINITY;
    }

    /** Whether every retrieved memory may be taken, so memories stored next to the best may join them. */
    boolean all() {
        return minCosine == Double.NEGATIVE_INFINITY;
    }

    /** Whether candidate {@code i} may be taken. */
    boolean admits(CandidateSet candidates, int i) {
        return all() || candidates.cosine(i) >= minCosine;
    }
}
