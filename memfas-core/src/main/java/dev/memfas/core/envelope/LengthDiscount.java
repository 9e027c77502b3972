package dev.memfas.core.envelope;

import dev.memfas.core.turn.CandidateSet;

/**
 * Ranks a memory that takes much of the budget a little lower than a short one of the same score: the budget is what
 * a turn spends, and a memory of 200 tokens displaces two or three others of 70. A memory that takes more than
 * {@value #SHORT_TOKENS} tokens in its item (its whole text, or the item cap it is cut to) scores its score times
 * ({@value #SHORT_TOKENS} / those tokens)<sup>{@value #EXPONENT}</sup>: 0.90 at 140 tokens, 0.81 at 200 (the item cap
 * of a 1,024-token budget), and no lower than at the item cap. A paragraph or less is not discounted at all, so turns of
 * a conversation (LoCoMo's: about 93 tokens at the 99th percentile) rank as they did.
 *
 * <p>The exponent keeps relevance first: a long memory that bears on the query still ranks above short ones that bear
 * on it less. Measured on LongMemEval's dev split, whose chat assistant replies run to hundreds of tokens, evidence
 * recall at 512 / 1,024 / 2,048 / 4,096 tokens rose from .829 / .881 / .929 / .967 to .829 / .951 / .963 / .988, in
 * fewer tokens (3,298 &rarr; 2,086 used of 4,096). On its val split, which shaped nothing, from .779 / .838 / .876 /
 * .946 to .788 / .909 / .965 / .969 (an exponent of 0.2: .784 / .891 / .964 / .970). LoCoMo's dev split, whose turns
 * are short, reads the same within .001; 64 tokens as the short length cost it .009 to .016 (docs/experiments.md).
 */
public final class LengthDiscount {
    /** A memory this short, a paragraph, is never discounted. */
    static final int SHORT_TOKENS = 100;
    /** How strongly the tokens a memory takes lower its rank: the square root would put length before relevance. */
    static final double EXPONENT = 0.3;

    private LengthDiscount() {}

    /**
     * Lowers the score of each candidate whose item, as counted and cut to the item cap of {@code budget}
     * ({@link BudgetFiller#itemCap}), takes more than {@value #SHORT_TOKENS} tokens.
     */
    public static void apply(CandidateSet candidates, int budget, int maxItemTokens) {
        int itemCap = BudgetFiller.itemCap(budget, maxItemTokens);
        for (int i = 0; i < candidates.size(); i++) {
            int takes = Math.min(candidates.tokens(i), itemCap);
            if (takes > SHORT_TOKENS) {
                candidates.setScore(i, candidates.score(i) * factor(takes));
            }
        }
    }

    /** What a score is multiplied by for an item of {@code tokens}: 1 up to {@value #SHORT_TOKENS}. */
    static double factor(int tokens) {
        return tokens <= SHORT_TOKENS ? 1 : Math.pow((double) SHORT_TOKENS / tokens, EXPONENT);
    }
}
