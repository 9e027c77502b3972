package dev.memfas.core.envelope;

import dev.memfas.core.turn.CandidateSet;

/**
 * Ranks a memory that takes much of the budget a little lower than a short one of the same score: the budget is what
 * a turn spends, and a memory of 200 tokens displaces two or three others of 70. A memory that takes more than
 * {@value #SHORT_TOKENS} tokens in its item (its whole text, or the item cap it is cut to) scores its score times
 * ({@value #SHORT_TOKENS} / those tokens)<sup>{@value #EXPONENT}</sup>: 0.90 at 140 tokens, 0.81 at 200 (the item cap
 * of a 1,024-token budget). A paragraph or less is not discounted at all, so turns of a conversation (LoCoMo's: about
 * 93 tokens at the 99th percentile) rank as they did.
 *
 * <p>The exponent keeps relevance first: a long memory that bears on the query still ranks above short ones that bear
 * on it less. Measured on LongMemEval's dev split, whose chat assistant replies run to hundreds of tokens, evidence
 * recall at 512 / 1,024 / 2,048 / 4,096 tokens rose from .829 / .881 / .929 / .967 to .829 / .951 / .963 / .988, in
 * fewer tokens (3,298 &rarr; 2,086 used of 4,096). On its val split, which shaped nothing, from .779 / .838 / .876 /
 * .946 to .788 / .909 / .965 / .969 (an exponent of 0.2: .784 / .891 / .964 / .970). LoCoMo's dev split, whose turns
 * are short, reads the same within .001; 64 tokens as the short length cost it .009 to .016 (docs/experiments.md).
 *
 * <p>A memory the cap cuts to half of itself or less counts as taking twice its item, and at least twice the short
 * length: what the item shows is a passage of a long text, at most half of it, and its score is the whole text's.
 * Under 1,000 tokens of budget the item cap is itself about a paragraph (102 tokens at 512), so a chat reply of 500
 * tokens cut to it used to take a fifth of the budget undiscounted, ahead of the short turns that answer multi-session
 * and temporal questions. Counted as 200 tokens there (0.81; as twice its item, 204, it reads the same),
 * LongMemEval's recall at 512 tokens rose from .788 to .851 on its val split (21 questions gained, none lost) and from
 * .829 to .855 on its dev split (two single-session-assistant questions, whose evidence is such a reply, lost it);
 * counted as twice its item at 1,024 tokens too (0.66 instead of 0.81), from .909 to .937 on val (nine gained, none
 * lost) and from .951 to .934 on dev (one lost: its evidence is a pasted text of 5,400 characters); 2,048 and 4,096
 * tokens read the same. LoCoMo, whose few long turns are cut by a few tokens, reads the same at every budget. Cut
 * to more than half, a memory keeps the discount of its item alone: applied to every memory cut at 512 tokens, the
 * rule cost LoCoMo .021 there.
 */
public final class LengthDiscount {
    /** A memory this short, a paragraph, is never discounted. */
    static final int SHORT_TOKENS = 100;
    /** How strongly the tokens a memory takes lower its rank: the square root would put length before relevance. */
    static final double EXPONENT = 0.3;
    /** What a memory cut to half of itself or less counts as taking, at the least: twice the short length. */
    static final int CUT_TO_HALF_TOKENS = 2 * SHORT_TOKENS;

    private LengthDiscount() {}

    /**
     * Lowers the score of each candidate whose item, as counted and cut to the item cap of {@code budget}
     * ({@link BudgetFiller#itemCap}), takes more than {@value #SHORT_TOKENS} tokens, or that the cap cuts to half of
     * itself or less.
     */
    public static void apply(CandidateSet candidates, int budget, int maxItemTokens) {
        int itemCap = BudgetFiller.itemCap(budget, maxItemTokens);
        for (int i = 0; i < candidates.size(); i++) {
            int takes = takes(candidates.tokens(i), itemCap);
            if (takes > SHORT_TOKENS) {
                candidates.setScore(i, candidates.score(i) * factor(takes));
            }
        }
    }

    /**
     * The tokens a memory of {@code tokens} counts as taking under an item cap: its item's, or, if the cap cuts it to
     * half of itself or less, twice the cap and at least {@value #CUT_TO_HALF_TOKENS}.
     */
    static int takes(int tokens, int itemCap) {
        return tokens >= 2 * itemCap ? Math.max(2 * itemCap, CUT_TO_HALF_TOKENS) : Math.min(tokens, itemCap);
    }

    /** What a score is multiplied by for an item of {@code tokens}: 1 up to {@value #SHORT_TOKENS}. */
    static double factor(int tokens) {
        return tokens <= SHORT_TOKENS ? 1 : Math.pow((double) SHORT_TOKENS / tokens, EXPONENT);
    }
}
