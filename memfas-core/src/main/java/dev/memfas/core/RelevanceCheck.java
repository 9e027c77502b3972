package dev.memfas.core;

import dev.memfas.RelevanceJudge;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A turn's relevance check, for a request that asks for one ({@link dev.memfas.ContextRequest#relevanceCheck}): the
 * curator's {@link RelevanceJudge} is shown the best {@value #SHOWN} ranked memories (not pinned, not linked by a
 * trigger), each by its id and the start of its text, and the ones it does not choose, with every ranked memory it was
 * not shown, are left out of the context (their score set to {@link #LEFT_OUT}, under any minimum). A judge that
 * throws, is late or names an id it was not shown leaves the turn as scored. Thread-safe.
 */
final class RelevanceCheck implements AutoCloseable {
    /** How many of the best memories the judge is shown: what a small model reads in one short prompt. */
    static final int SHOWN = 20;
    /** The score of a memory the judge left out. */
    static final double LEFT_OUT = -1;
    private static final int PREVIEW_CHARS = 100;
    private static final String FALLBACK = "the turn keeps its scores";

    private final RelevanceJudge judge;
    private final GuardedCall judging;

    RelevanceCheck(RelevanceJudge judge, Duration timeout) {
        this.judge = judge;
        this.judging = judge == null ? null : new GuardedCall("the relevance judge", timeout);
    }

    /**
     * Asks the judge and leaves out what it did not choose; nothing when there is no judge or it gives no usable answer.
     * The ranking must be ranked anew afterwards.
     */
    void apply(String query, CandidateSet candidates, Ranking ranking) {
        if (judge == null) {
            return;
        }
        List<RelevanceJudge.Candidate> shown = new ArrayList<>(SHOWN);
        Set<String> shownIds = new HashSet<>();
        for (int r = 0; r < ranking.size() && shown.size() < SHOWN; r++) {
            int c = ranking.at(r);
            if (candidates.memory(c).pinned()) {
                continue;
            }
            String text = candidates.memory(c).text();
            shown.add(new RelevanceJudge.Candidate(RelevanceJudge.Kind.MEMORY, candidates.id(c),
                    text.substring(0, Math.min(text.length(), PREVIEW_CHARS))));
            shownIds.add(candidates.id(c));
        }
        if (shown.isEmpty()) {
            return;
        }
        List<String> chosen = judging.call(() -> judge.relevant(query, List.copyOf(shown)), FALLBACK);
        if (chosen == null) {
            return;
        }
        if (!shownIds.containsAll(chosen)) {
            judging.refused("named memories it was not shown", FALLBACK);
            return;
        }
        Set<String> keep = new HashSet<>(chosen);
        for (int r = 0; r < ranking.size(); r++) {
            int c = ranking.at(r);
            if (!candidates.memory(c).pinned() && !keep.contains(candidates.id(c))) {
                candidates.setScore(c, LEFT_OUT);
            }
        }
    }

    @Override
    public void close() {
        if (judging != null) {
            judging.close();
        }
    }
}
