package dev.memfas.bench;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The contexts of the systems that give whole turns, packed into a budget without an envelope: a peer's ranking
 * ({@link RrfHybrid}) and the latest turns. Each turn counts its text's tokens plus one, as {@link EvalMain} counts
 * them for every system.
 */
final class WholeTurns {
    private WholeTurns() {}

    /**
     * A peer's context: its ranking packed greedily, each turn's text counted as the recent baseline counts it, every
     * turn that fits taken in rank order and the ones that do not skipped. Its turns are whole, so it shows the
     * {@code answer}'s words (null: none to look for) that they hold.
     */
    static EvalMain.Outcome packed(String system, EvalData.Question q, int budget, List<Integer> ranking,
            List<EvalData.Turn> turns, int[] tokens, double rankMillis, Set<String> answer) {
        long start = System.nanoTime();
        List<String> ids = new ArrayList<>();
        int used = 0;
        for (int i : ranking) {
            if (used + tokens[i] <= budget) {
                used += tokens[i];
                ids.add(turns.get(i).id());
            }
        }
        return EvalMain.outcome(system, q, budget, ids, used, rankMillis + (System.nanoTime() - start) / 1e6,
                shows(answer, ids, turns));
    }

    /** The baseline with no retrieval: the latest turns, newest first, while their text fits the budget. */
    static EvalMain.Outcome recent(List<EvalData.Turn> turns, int[] tokens, EvalData.Question q, int budget,
            Set<String> answer) {
        long start = System.nanoTime();
        List<String> ids = new ArrayList<>();
        int used = 0;
        for (int i = turns.size() - 1; i >= 0; i--) {
            if (used + tokens[i] > budget) {
                break;
            }
            used += tokens[i];
            ids.add(turns.get(i).id());
        }
        return EvalMain.outcome("recent", q, budget, ids, used, (System.nanoTime() - start) / 1e6,
                shows(answer, ids, turns));
    }

    /** The share of the answer's words whole turns show: null when there are none to look for. */
    private static Double shows(Set<String> answer, List<String> ids, List<EvalData.Turn> turns) {
        if (answer == null) {
            return null;
        }
        Set<String> in = new HashSet<>(ids);
        StringBuilder shown = new StringBuilder();
        turns.stream().filter(t -> in.contains(t.id())).forEach(t -> shown.append(t.text()).append('\n'));
        return ShownAnswer.shown(answer, shown.toString());
    }
}
