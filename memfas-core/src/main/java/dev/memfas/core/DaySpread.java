package dev.memfas.core;

import dev.memfas.Memory;

/**
 * Keeps one day of one source from filling a turn's budget with its own matches while other days have theirs. Walking
 * the ranking best first, it adds up each day's candidates as items; once a day's candidates already ranked before
 * make {@code share} of the budget, each further match of that day scores {@value #DECAY} of its score per match
 * past the share ({@value #DECAY}, then {@value #DECAY} squared, ...), and the candidates are ranked again. A day is
 * the memories of one stated {@link Memory#source() source} created on one UTC day, the group a day heading of the
 * envelope shows: a conversation's session, mostly. When the candidates come from one day only there is nothing to make
 * room for, and nothing is lowered: lowering would only reorder the day, letting the neighbors below (which keep their
 * score, see below) pass its matches (on a LongMemEval haystack of 46 sessions on one day, a wedding the question
 * counts fell out of 4,096 tokens that way).
 *
 * <p>Why: a question whose answer was said in two conversations (or said, then changed in a later one) ranked the
 * first conversation's many replies above the second's one statement, and the budget was full before it. On
 * LongMemEval, at half the budget, evidence recall rose from .800 / .853 / .904 / .947 to .834 / .892 / .913 / .947 at
 * 512 / 1,024 / 2,048 / 4,096 tokens, knowledge-update questions to 1.000 at every budget (see docs/experiments.md).
 *
 * <p>A neighbor that ranks by the score it inherits from its match ({@link NeighborExpander}) keeps it: it is context
 * for the match, and on LoCoMo it is where a short question's answer is (lowered too, LoCoMo lost .010 at 512 tokens;
 * kept, its numbers do not move). It still counts towards its day's share. Memories of the default source are not
 * grouped: nothing says they were written together. Immutable and thread-safe; a turn's table of days is its
 * workspace's ({@link Days}).
 */
final class DaySpread {
    /** What a day's match keeps of its score for each of its day's matches past the share, itself included. */
    static final double DECAY = 0.9;

    private final double share;
    private final int maxItemTokens;

    /**
     * @param share the share of a turn's budget one day's candidates may make before its matches score less; 1 off
     * @param maxItemTokens the most tokens one item may take, whatever the budget ({@link BudgetFiller#itemCap})
     */
    DaySpread(double share, int maxItemTokens) {
        this.share = share;
        this.maxItemTokens = maxItemTokens;
    }

    /**
     * Lowers the scores of the matches of days past their share, and ranks the candidates again if any was lowered.
     *
     * @param budget the turn's budget
     */
    void apply(CandidateSet candidates, Ranking ranking, int budget, Days days) {
        if (share >= 1 || !twoDays(candidates, ranking)) {
            return;
        }
        int itemCap = BudgetFiller.itemCap(budget, maxItemTokens); // a longer memory is cut to it
        days.reset(ranking.size());
        double allowed = share * budget;
        double[] neighbor = candidates.factors(Factor.NEIGHBOR);
        boolean lowered = false;
        for (int r = 0; r < ranking.size(); r++) {
            int c = ranking.at(r);
            Memory m = candidates.memory(c);
            if (!grouped(m)) {
                continue;
            }
            int slot = days.slot(m.source(), ContextEnvelope.utcDay(m.createdAt()));
            int size = candidates.tokens(c);
            int before = days.tokens[slot];
            days.tokens[slot] = before + (size < 0 ? itemCap : Math.min(size, itemCap));
            boolean inherited = neighbor[c] > 0 && neighbor[c] >= candidates.score(c);
            if (before >= allowed && !inherited) {
                days.over[slot]++;
                candidates.setScore(c, candidates.score(c) * Math.pow(DECAY, days.over[slot]));
                lowered = true;
            }
        }
        if (lowered) {
            ranking.rank(candidates);
        }
    }

    /** Whether the grouped candidates come from at least two days: one day alone has nothing to make room for. */
    private static boolean twoDays(CandidateSet candidates, Ranking ranking) {
        String source = null;
        long day = 0;
        for (int r = 0; r < ranking.size(); r++) {
            Memory m = candidates.memory(ranking.at(r));
            if (!grouped(m)) {
                continue;
            }
            long d = ContextEnvelope.utcDay(m.createdAt());
            if (source == null) {
                source = m.source();
                day = d;
            } else if (d != day || !source.equals(m.source())) {
                return true;
            }
        }
        return false;
    }

    /** Whether a memory counts towards its day: pinned ones are never lowered, the default source says no day. */
    static boolean grouped(Memory m) {
        return !m.pinned() && !Memory.DEFAULT_SOURCE.equals(m.source());
    }

    /**
     * A turn's days, kept by a {@link TurnWorkspace} for the next turn: each day's slot ({@link DaySlots}), with the
     * tokens of the day's candidates so far and its matches past the share. Not thread-safe.
     */
    static final class Days {
        private final DaySlots slots = new DaySlots();
        private int[] tokens = new int[64];
        private int[] over = new int[64];

        private void reset(int candidates) {
            int capacity = slots.reset(candidates);
            if (tokens.length < capacity) {
                tokens = new int[capacity];
                over = new int[capacity];
            }
        }

        /** The slot of a day, zeroed if the day is new. */
        private int slot(String source, long day) {
            int i = slots.slot(source, day);
            if (slots.taken()) {
                tokens[i] = 0;
                over[i] = 0;
            }
            return i;
        }
    }
}
