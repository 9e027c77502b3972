package dev.memfas.core.turn;

import java.util.Arrays;

/**
 * The candidates not linked by a trigger, best first: higher score first, ties by id, so that equal scores rank the
 * same way every turn. Positions into a {@link CandidateSet}, in an array reused turn after turn. Not thread-safe.
 */
public final class Ranking {
    private int[] order = new int[256];
    private int[] scratch = new int[256];
    private int size;

    /** Ranks the set's unlinked candidates by their scores now. */
    public void rank(CandidateSet candidates) {
        collect(candidates);
        sort(candidates, 0, size);
    }

    /**
     * Writes the positions of the best {@code limit} unlinked candidates, best first, to {@code out}, without ranking
     * the rest.
     *
     * @return how many were written: {@code limit}, or fewer if there are fewer candidates
     */
    int best(CandidateSet candidates, int limit, int[] out) {
        int n = 0;
        for (int i = 0; i < candidates.size(); i++) {
            if (candidates.linked(i)) {
                continue;
            }
            if (n < limit) {
                n++;
            } else if (!before(candidates, i, out[n - 1])) {
                continue;
            }
            int at = n - 1;
            while (at > 0 && before(candidates, i, out[at - 1])) {
                out[at] = out[at - 1];
                at--;
            }
            out[at] = i;
        }
        return n;
    }

    public int size() {
        return size;
    }

    /** The position of the candidate ranked {@code rank} (0 is the best). */
    public int at(int rank) {
        return order[rank];
    }

    private void collect(CandidateSet candidates) {
        if (order.length < candidates.size()) {
            order = new int[Math.max(candidates.size(), 2 * order.length)];
            scratch = new int[order.length];
        }
        size = 0;
        for (int i = 0; i < candidates.size(); i++) {
            if (!candidates.linked(i)) {
                order[size++] = i;
            }
        }
    }

    /** Whether candidate {@code a} ranks before candidate {@code b}. */
    static boolean before(CandidateSet candidates, int a, int b) {
        int cmp = Double.compare(candidates.score(b), candidates.score(a));
        return cmp != 0 ? cmp < 0 : candidates.id(a).compareTo(candidates.id(b)) < 0;
    }

    /** Merge sort of {@code order[from, to)}: a few hundred positions, no boxing, no comparator objects. */
    private void sort(CandidateSet candidates, int from, int to) {
        if (to - from < 16) {
            for (int i = from + 1; i < to; i++) {
                int x = order[i];
                int j = i - 1;
                while (j >= from && before(candidates, x, order[j])) {
                    order[j + 1] = order[j];
                    j--;
                }
                order[j + 1] = x;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        sort(candidates, from, mid);
        sort(candidates, mid, to);
        System.arraycopy(order, from, scratch, from, to - from);
        int i = from;
        int j = mid;
        for (int k = from; k < to; k++) {
            if (j >= to || (i < mid && !before(candidates, scratch[j], scratch[i]))) {
                order[k] = scratch[i++];
            } else {
                order[k] = scratch[j++];
            }
        }
    }

    @Override
    public String toString() {
        return "Ranking" + Arrays.toString(Arrays.copyOf(order, size));
    }
}
