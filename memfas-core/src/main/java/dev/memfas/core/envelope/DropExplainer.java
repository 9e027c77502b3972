package dev.memfas.core.envelope;

import dev.memfas.Conversation;
import dev.memfas.DroppedMemory;
import dev.memfas.core.text.NormalizedText;
import dev.memfas.core.turn.Admission;
import dev.memfas.core.turn.CandidateSet;
import dev.memfas.core.turn.FillPlan;
import dev.memfas.core.turn.Ranking;
import dev.memfas.core.turn.RelevanceCheck;
import dev.memfas.core.turn.RelevanceEnd;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Says why each candidate a turn left out is not in the context, for requests that ask
 * ({@link dev.memfas.ContextRequest#explain()}). It reads the fill's outcome afterwards instead of recording reasons
 * as the budget is filled, so that turns which do not ask pay nothing. An unpinned ranked candidate the turn's
 * {@link Admission} held back was below the relevance floor. Otherwise a ranked candidate
 * under the minimum score (pinned ones never are) was below that, and one past where the turn's relevance ends
 * ({@link RelevanceEnd}) below the relative floor; one whose normalized text equals an included
 * memory's, or whose cosine with one reaches the duplicate threshold, was a duplicate of it, as was a fact taken from
 * a conversation whose turns are all in (of the first of them); any other did not fit,
 * or came after the most items the turn allows.
 *
 * <p>Immutable and thread-safe.
 */
public final class DropExplainer {
    private final double duplicateCosine;

    public DropExplainer(double duplicateCosine) {
        this.duplicateCosine = duplicateCosine;
    }

    /**
     * The left-out candidates: trigger-linked first, then by rank.
     *
     * @param linked positions of the candidates linked from fired triggers
     * @param linkedCount how many of {@code linked} there are
     * @param ranked the other candidates, best first
     * @param included the positions of the candidates in the context
     * @param admission what the turn could retrieve
     * @param plan the turn's minimum score and most items
     */
    public List<DroppedMemory> explain(CandidateSet candidates, int[] linked, int linkedCount, Ranking ranked,
            int[] included, Admission admission, FillPlan plan) {
        RelevanceEnd end = RelevanceEnd.of(plan, candidates, ranked, admission);
        Set<String> in = new HashSet<>();
        for (int c : included) {
            in.add(candidates.id(c));
        }
        List<DroppedMemory> dropped = new ArrayList<>();
        for (int k = 0; k < linkedCount; k++) {
            explain(candidates, linked[k], false, admission, included, in, dropped, plan, end);
        }
        for (int r = 0; r < ranked.size(); r++) {
            explain(candidates, ranked.at(r), true, admission, included, in, dropped, plan, end);
        }
        return dropped;
    }

    private void explain(CandidateSet candidates, int c, boolean ranked, Admission admission, int[] included,
            Set<String> in, List<DroppedMemory> dropped, FillPlan plan, RelevanceEnd end) {
        if (!in.add(candidates.id(c))) {
            return;
        }
        boolean retrieved = ranked && !candidates.memory(c).pinned();
        boolean gated = retrieved && !admission.admits(candidates, c);
        boolean judgedOut = retrieved && !gated && candidates.score(c) == RelevanceCheck.LEFT_OUT;
        boolean belowMinScore = retrieved && !gated && !judgedOut && end.belowMinScore(candidates, c);
        boolean belowRelativeFloor = retrieved && !gated && !judgedOut && !belowMinScore && end.past(candidates, c);
        int original = gated || belowMinScore || belowRelativeFloor || judgedOut ? -1
                : repeated(candidates, c, included);
        DroppedMemory.Reason reason = gated ? DroppedMemory.Reason.BELOW_RELEVANCE_FLOOR
                : judgedOut ? DroppedMemory.Reason.NOT_CHOSEN_BY_JUDGE
                : belowMinScore ? DroppedMemory.Reason.BELOW_MIN_SCORE
                : belowRelativeFloor ? DroppedMemory.Reason.BELOW_RELATIVE_FLOOR
                : original >= 0 ? DroppedMemory.Reason.DUPLICATE
                : included.length >= plan.maxItems() ? DroppedMemory.Reason.OVER_ITEM_LIMIT
                : DroppedMemory.Reason.OVER_BUDGET;
        dropped.add(new DroppedMemory(candidates.id(c), candidates.score(c), reason,
                original < 0 ? null : candidates.id(original)));
    }

    /** The included candidate this one repeats (for a fact, the first of its turns), or -1. */
    private int repeated(CandidateSet candidates, int c, int[] included) {
        String from = candidates.memory(c).metadata().get(Conversation.FROM_TURNS_KEY);
        if (from != null && !from.isEmpty()) {
            int first = -1;
            boolean all = true;
            for (String id : from.split(",")) {
                int at = -1;
                for (int other : included) {
                    if (candidates.id(other).equals(id)) {
                        at = other;
                    }
                }
                all &= at >= 0;
                first = first < 0 ? at : first;
            }
            if (all) {
                return first;
            }
        }
        String text = NormalizedText.normalize(candidates.memory(c).text());
        int row = candidates.row(c);
        for (int other : included) {
            if (NormalizedText.normalize(candidates.memory(other).text()).equals(text)) {
                return other;
            }
            int otherRow = candidates.row(other);
            if (candidates.dimension() > 0 && row >= 0 && otherRow >= 0
                    && cosine(candidates.matrix(), row, otherRow, candidates.dimension()) >= duplicateCosine) {
                return other;
            }
        }
        return -1;
    }

    /** Rows are unit vectors: their dot product is their cosine. */
    private static double cosine(float[] matrix, int a, int b, int dimension) {
        double sum = 0;
        int i = a * dimension;
        int j = b * dimension;
        for (int d = 0; d < dimension; d++) {
            sum += (double) matrix[i + d] * matrix[j + d];
        }
        return sum;
    }
}
