package dev.memfas.core.turn;

/**
 * Where a turn's relevance ends, so that its budget is a ceiling and not a target: a retrieved memory is taken only
 * if it scores at least the plan's relative floor times the turn's best score (and at least the minimum score), or if
 * its cosine with the query is near the best one's: closer to it than to the model's relevance floor, or within
 * {@value #NEAR_BEST_COSINE} of it.
 *
 * <p>Scores are each factor normalized over the turn's candidates and weighted, so a turn's best is near the top of the
 * scale whether or not it answers, and the memories after it fall away as they bear less on the query: a share of the
 * best says where this query's relevance ends, where an absolute score cannot. On LoCoMo's dev split, a 2,048-token
 * ceiling with the default share of {@value BudgetFiller#RELATIVE_FLOOR} holds .914 of the evidence (the filled budget
 * .918) in 1,549 tokens on average instead of 2,038, and a 4,096-token one .937 (.948) in 2,187 instead of 4,080; on
 * LongMemEval's, whose chat replies score closer together, 2,048 tokens hold .940 (.949) in 1,810 instead of 2,040
 * (0.5 to 0.65 measured too: docs/experiments.md).
 *
 * <p>Min-max scaling spreads whatever cosines the candidates have over the whole scale, so in a small candidate set
 * memories that are all about the query land far apart: three rules at cosines .76, .72 and .70 with "the worker
 * fails with an error: how do I fix it?" (the default model, whose relevance floor is 0.57), and the third gets a
 * semantic factor of 0 and 0.30 of the best score. A memory as close to the query as the best in meaning is therefore
 * taken whatever its score. Measured on the filled contexts of the dev splits, closer to the best than to the floor
 * costs 3 to 78 tokens a turn more than within 0.05 of the best, with the same evidence; on LongMemEval's val split
 * (its first 65 questions) it kept .913 of the evidence at 2,048 tokens instead of .905.
 *
 * <p>A turn scored without meaning (no embedder, or no vectors stored) has no such end and fills its budget: BM25
 * alone measures words in common, whose weight falls off steeply with how common a word is, so a share of the best
 * says little about what bears on the query. Held to the relative floor, memfas's lexical ranking alone found .588 of
 * LoCoMo's evidence at 1,024 tokens instead of .686, and .597 at 4,096 instead of .796.
 *
 * <p>Pinned and trigger-linked memories are not held to it. Immutable.
 *
 * @param minScore the lowest score a retrieved memory may have in any case
 * @param floor the lowest score a retrieved memory may have unless it is near the best in meaning
 * @param nearCosine the cosine at or above which a memory is near the best in meaning (positive infinity for none)
 */
public record RelevanceEnd(double minScore, double floor, double nearCosine) {
    /**
     * How far under the best cosine a memory may be and still be as close to the query in meaning, whatever the
     * model's relevance floor (and with a model that has none).
     */
    static final double NEAR_BEST_COSINE = 0.05;

    /** Where the turn's relevance ends, from its plan, its ranked candidates and what it may retrieve. */
    public static RelevanceEnd of(FillPlan plan, CandidateSet candidates, Ranking ranked, Admission admission) {
        double minScore = plan.minScore();
        if (plan.relativeFloor() <= 0 || !admission.any()) {
            return new RelevanceEnd(minScore, minScore, Double.POSITIVE_INFINITY);
        }
        double best = Double.NaN;
        float bestCosine = Float.NEGATIVE_INFINITY;
        for (int r = 0; r < ranked.size(); r++) {
            int c = ranked.at(r);
            if (candidates.memory(c).pinned() || !admission.admits(candidates, c)) {
                continue;
            }
            if (Double.isNaN(best)) {
                best = candidates.score(c);
            }
            float cosine = candidates.cosine(c);
            if (cosine > bestCosine) {
                bestCosine = cosine;
            }
        }
        if (Double.isNaN(best) || bestCosine == Float.NEGATIVE_INFINITY) {
            return new RelevanceEnd(minScore, minScore, Double.POSITIVE_INFINITY); // nothing, or nothing by meaning
        }
        double near = bestCosine - NEAR_BEST_COSINE;
        if (plan.relevanceFloor() > -1 && plan.relevanceFloor() < bestCosine) {
            near = Math.min(near, (bestCosine + plan.relevanceFloor()) / 2);
        }
        return new RelevanceEnd(minScore, Math.max(minScore, plan.relativeFloor() * best), near);
    }

    /** Whether ranked candidate {@code c} is under the minimum score: it, and every one ranked after it, is left out. */
    public boolean belowMinScore(CandidateSet candidates, int c) {
        return candidates.score(c) < minScore;
    }

    /** Whether candidate {@code c}, at or above the minimum score, is past where the turn's relevance ends. */
    public boolean past(CandidateSet candidates, int c) {
        if (candidates.score(c) >= floor) {
            return false;
        }
        float cosine = candidates.cosine(c);
        return Float.isNaN(cosine) || cosine < nearCosine;
    }
}
