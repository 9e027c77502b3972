package dev.memfas.core.turn;

import dev.memfas.core.curator.RelevanceJudging;
import dev.memfas.policy.RelevanceJudge;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A turn's relevance check, for a request that asks for one ({@link dev.memfas.ContextRequest#relevanceCheck}): the
 * curator's {@link RelevanceJudge} is shown the best {@value #SHOWN} ranked memories (not pinned, not linked by a
 * trigger), each by its id and the start of its text, and the ones it does not choose, with every ranked memory it was
 * not shown, are left out of the context (their score set to {@link #LEFT_OUT}, under any minimum). The question goes
 * in the turn's one call to the judge ({@link RelevanceJudging}); a judge that throws, is late or names an id it was
 * not shown leaves the turn as scored. Stateless.
 */
public final class RelevanceCheck {
    /** How many of the best memories the judge is shown: what a small model reads in one short prompt. */
    static final int SHOWN = 20;
    /** The score of a memory the judge left out. */
    public static final double LEFT_OUT = -1;
    private static final int PREVIEW_CHARS = 100;

    private RelevanceCheck() {}

    /** The memories the judge is shown: the best ranked ones that are not pinned, by id and the start of the text. */
    public static List<RelevanceJudge.Candidate> shown(CandidateSet candidates, Ranking ranking) {
        List<RelevanceJudge.Candidate> shown = new ArrayList<>(SHOWN);
        for (int r = 0; r < ranking.size() && shown.size() < SHOWN; r++) {
            int c = ranking.at(r);
            if (candidates.memory(c).pinned()) {
                continue;
            }
            String text = candidates.memory(c).text();
            shown.add(new RelevanceJudge.Candidate(RelevanceJudge.Kind.MEMORY, candidates.id(c),
                    text.substring(0, Math.min(text.length(), PREVIEW_CHARS))));
        }
        return shown;
    }

    /**
     * Leaves out every ranked memory, not pinned, that the judge did not choose; nothing when it gave no usable answer
     * (null). The ranking must be ranked anew afterwards.
     */
    public static void apply(Set<String> chosen, CandidateSet candidates, Ranking ranking) {
        if (chosen == null) {
            return;
        }
        for (int r = 0; r < ranking.size(); r++) {
            int c = ranking.at(r);
            if (!candidates.memory(c).pinned() && !chosen.contains(candidates.id(c))) {
                candidates.setScore(c, LEFT_OUT);
            }
        }
    }
}
