package dev.memfas.core.envelope;

import dev.memfas.core.vector.Vectors;
import java.util.Arrays;

/**
 * The vectors of the items taken so far, and whether a candidate comes close to one of them. A fill checks every
 * candidate it considers against every item taken, so most pairs are far apart and should cost little. The first
 * {@value #PREFIX} dimensions of the taken vectors are kept one column per dimension, so a candidate's partial dot
 * products with all of them are one loop of {@code acc[j] += x[d] * column[j]} the JIT vectorizes; the rest of a
 * dot product is at most the product of the two vectors' remaining lengths (Cauchy–Schwarz), and only a pair whose
 * partial sum plus that bound reaches the threshold is scored in full.
 */
final class TakenVectors {
    /** How many leading dimensions are scored for every pair. */
    static final int PREFIX = 64;
    /** Room for float rounding between the bound and the full dot product. */
    static final float SLACK = 1e-4f;

    private float[] matrix;
    private int dimension;
    private int prefix;
    private int[] rows = new int[16];
    private float[] restLengths = new float[16];
    private float[][] columns = new float[0][];
    private float[] acc = new float[16];
    private int size;

    TakenVectors() {}

    TakenVectors(float[] matrix, int dimension) {
        reset(matrix, dimension);
    }

    /** Empties this for a turn whose vectors are the rows of {@code matrix} (null without vectors). */
    void reset(float[] matrix, int dimension) {
        this.matrix = matrix;
        this.dimension = dimension;
        this.prefix = matrix == null ? 0 : Math.min(PREFIX, dimension);
        if (columns.length < prefix) {
            float[][] grown = new float[prefix][];
            for (int d = 0; d < prefix; d++) {
                grown[d] = d < columns.length ? columns[d] : new float[rows.length];
            }
            columns = grown;
        }
        size = 0;
    }

    /** Takes the vector of matrix row {@code row}; nothing for a candidate without one (row -1). */
    void add(int row) {
        if (matrix == null || row < 0) {
            return;
        }
        if (size == rows.length) {
            int grown = size * 2;
            rows = Arrays.copyOf(rows, grown);
            restLengths = Arrays.copyOf(restLengths, grown);
            for (int d = 0; d < columns.length; d++) {
                columns[d] = Arrays.copyOf(columns[d], grown);
            }
            acc = new float[grown];
        }
        rows[size] = row;
        restLengths[size] = restLength(row);
        int base = row * dimension;
        for (int d = 0; d < prefix; d++) {
            columns[d][size] = matrix[base + d];
        }
        size++;
    }

    /** Whether the vector of matrix row {@code row} has a cosine of at least {@code threshold} with one taken. */
    boolean anyAtLeast(int row, double threshold) {
        if (matrix == null || row < 0 || size == 0) {
            return false;
        }
        int base = row * dimension;
        int n = size;
        float[] sums = acc;
        Arrays.fill(sums, 0, n, 0f);
        for (int d = 0; d < prefix; d++) {
            float x = matrix[base + d];
            float[] column = columns[d];
            for (int j = 0; j < n; j++) {
                sums[j] += x * column[j];
            }
        }
        float rest = restLength(row);
        for (int j = 0; j < n; j++) {
            if (sums[j] + rest * restLengths[j] + SLACK >= threshold
                    && Vectors.dot(matrix, base, matrix, rows[j] * dimension, dimension) >= threshold) {
                return true;
            }
        }
        return false;
    }

    /** The length of the part of row {@code row} after the first {@link #prefix} dimensions. */
    private float restLength(int row) {
        int from = row * dimension + prefix;
        return (float) Math.sqrt(Vectors.dot(matrix, from, matrix, from, dimension - prefix));
    }
}
