package dev.memfas.core.vector;

import java.util.Arrays;

/**
 * The layout of a small index: the unit vectors again, one {@code float[]} column per dimension, scored exactly with
 * no codes. Over so few vectors a code scan re-scores a hundred or more rows, which costs as much as scoring them all:
 * at 1,000 vectors on JDK 17 this scan takes a third of the time of the 16-bit scan and its re-scoring. An index keeps
 * it until it first holds more than {@link VectorIndex#EXACT_SLOTS} slots. Guarded by the index's lock.
 */
final class ExactColumns {
    private final float[][] columns;
    private final int maxSlots;

    ExactColumns(int dimension, int maxSlots) {
        this.columns = new float[dimension][0];
        this.maxSlots = maxSlots;
    }

    /** Whether slots {@code [0, needed)} are more than this layout holds: the index must move to codes. */
    boolean outgrownBy(int needed) {
        return needed > maxSlots;
    }

    /** Makes room for slots {@code [0, needed)}, at most {@code maxSlots}. */
    void ensureCapacity(int needed) {
        int capacity = columns[0].length;
        if (needed > capacity) {
            int grown = Math.min(maxSlots, Math.max(needed, Math.max(2 * capacity, Blocks.MIN_CAPACITY)));
            for (int d = 0; d < columns.length; d++) {
                columns[d] = Arrays.copyOf(columns[d], grown);
            }
        }
    }

    void write(int slot, float[] unit) {
        for (int d = 0; d < columns.length; d++) {
            columns[d][slot] = unit[d];
        }
    }

    void move(int from, int to) {
        for (float[] column : columns) {
            column[to] = column[from];
        }
    }

    void clear(int slot) {
        for (float[] column : columns) {
            column[slot] = 0f;
        }
    }

    /** Scores slots {@code [0, n)} exactly into {@code acc}, then offers them all to {@code top}. */
    void scan(float[] query, int n, float[] acc, TopScores top) {
        Arrays.fill(acc, 0, n, 0f);
        int dimension = columns.length;
        int d = 0;
        // Four dimensions per pass, as in the 16-bit scan: the accumulators are loaded and stored a quarter as often.
        for (; d + 4 <= dimension; d += 4) {
            float q0 = query[d];
            float q1 = query[d + 1];
            float q2 = query[d + 2];
            float q3 = query[d + 3];
            float[] c0 = columns[d];
            float[] c1 = columns[d + 1];
            float[] c2 = columns[d + 2];
            float[] c3 = columns[d + 3];
            for (int j = 0; j < n; j++) {
                acc[j] += q0 * c0[j] + q1 * c1[j] + q2 * c2[j] + q3 * c3[j];
            }
        }
        for (; d < dimension; d++) {
            float q = query[d];
            float[] column = columns[d];
            for (int j = 0; j < n; j++) {
                acc[j] += q * column[j];
            }
        }
        for (int j = 0; j < n; j++) {
            top.offer(j, acc[j]);
        }
    }
}
