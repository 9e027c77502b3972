package dev.memfas.core;

import dev.memfas.DroppedMemory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Says why each candidate a turn left out is not in the context, for requests that ask
 * ({@link dev.memfas.ContextRequest#explain()}). It reads the fill's outcome afterwards instead of recording reasons
 * as the budget is filled, so that turns which do not ask pay nothing: a candidate under the minimum score (pinned ones
 * never are) was below the floor; one whose normalized text equals an included memory's, or whose cosine with one
 * reaches the duplicate threshold, was a duplicate of it; any other did not fit.
 *
 * <p>Immutable and thread-safe.
 */
final class DropExplainer {
    private final double minScore;
    private final double duplicateCosine;

    DropExplainer(double minScore, double duplicateCosine) {
        this.minScore = minScore;
        this.duplicateCosine = duplicateCosine;
    }

    /**
     * The left-out candidates in the order given (trigger-linked first, then by descending score).
     *
     * @param linked the candidates linked from fired triggers
     * @param ranked the other candidates, best first
     * @param includedIds the ids in the context
     * @param byId every candidate by id
     * @param matrix the turn's vectors (rows per {@link Candidate#row}), or null
     */
    List<DroppedMemory> explain(List<Candidate> linked, List<Candidate> ranked, List<String> includedIds,
            Map<String, Candidate> byId, float[] matrix, int dimension) {
        Set<String> in = new HashSet<>(includedIds);
        List<Candidate> included = new ArrayList<>(includedIds.size());
        for (String id : includedIds) {
            included.add(byId.get(id));
        }
        List<DroppedMemory> dropped = new ArrayList<>();
        for (List<Candidate> group : List.of(linked, ranked)) {
            for (Candidate c : group) {
                if (!in.add(c.id())) {
                    continue;
                }
                boolean belowFloor = group == ranked && !c.stored.memory().pinned() && c.score < minScore;
                Candidate original = belowFloor ? null : repeated(c, included, matrix, dimension);
                DroppedMemory.Reason reason = belowFloor ? DroppedMemory.Reason.BELOW_MIN_SCORE
                        : original != null ? DroppedMemory.Reason.DUPLICATE : DroppedMemory.Reason.OVER_BUDGET;
                dropped.add(new DroppedMemory(c.id(), c.score, reason, original == null ? null : original.id()));
            }
        }
        return dropped;
    }

    /** The included memory this candidate repeats, or null. */
    private Candidate repeated(Candidate c, List<Candidate> included, float[] matrix, int dimension) {
        String text = BudgetFiller.normalize(c.stored.memory().text());
        for (Candidate other : included) {
            if (other == null) {
                continue;
            }
            if (BudgetFiller.normalize(other.stored.memory().text()).equals(text)) {
                return other;
            }
            if (matrix != null && c.row >= 0 && other.row >= 0 && cosine(matrix, c.row, other.row, dimension)
                    >= duplicateCosine) {
                return other;
            }
        }
        return null;
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
