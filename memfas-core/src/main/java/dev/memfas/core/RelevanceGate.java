package dev.memfas.core;

/**
 * Decides whether a turn has anything relevant to retrieve: whether its best candidate's cosine with the query reaches
 * the model's relevance floor. Memories are ranked against each other, each factor normalized over the turn's
 * candidates, so a ranking alone cannot tell a query with good matches from one with none: without this check a
 * general question ("What is the capital of France?") asked of personal notes gets a full budget of its least unrelated
 * notes. When the gate stays shut the turn's context holds only what triggers and pinning put there.
 *
 * <p>The check is on the raw cosine, before normalizing, and needs a floor calibrated for the model (see
 * {@link dev.memfas.Embedder#relevanceFloor()}); a turn without vectors (no embedder, or none stored) is always let
 * through, to be ranked by its other signals. Immutable and thread-safe.
 */
final class RelevanceGate {
    private final double floor;

    /** @param floor the cosine the best candidate must reach; -1 lets every turn through */
    RelevanceGate(double floor) {
        this.floor = floor;
    }

    /** Whether the best of the candidates that have a vector reaches the floor (true when none has one). */
    boolean opens(CandidateSet candidates) {
        if (floor <= -1) {
            return true;
        }
        boolean anyVector = false;
        for (int i = 0; i < candidates.size(); i++) {
            float cosine = candidates.cosine(i);
            if (!Float.isNaN(cosine)) {
                if (cosine >= floor) {
                    return true;
                }
                anyVector = true;
            }
        }
        return !anyVector;
    }
}
