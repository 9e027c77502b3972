package dev.memfas.core;

import dev.memfas.Embeddings;

/** Small vector operations outside the scan loop. */
final class Vectors {
    private Vectors() {}

    /** A unit-length copy of the vector (a zero vector stays zero). */
    static float[] normalizedCopy(float[] v, int dimension) {
        Embeddings.checkVector(v, dimension, "vector");
        double sum = 0;
        for (float x : v) {
            sum += (double) x * x;
        }
        float[] out = new float[dimension];
        if (sum == 0) {
            return out;
        }
        float inv = (float) (1.0 / Math.sqrt(sum));
        for (int d = 0; d < dimension; d++) {
            out[d] = v[d] * inv;
        }
        return out;
    }

    /** Dot product of row {@code row} of a flat matrix with a vector. */
    static float dotRow(float[] matrix, int row, float[] v) {
        int base = row * v.length;
        float sum = 0;
        for (int d = 0; d < v.length; d++) {
            sum += matrix[base + d] * v[d];
        }
        return sum;
    }

    /** Dot product of two rows of a flat matrix. */
    static float dotRows(float[] matrix, int a, int b, int dimension) {
        int ba = a * dimension;
        int bb = b * dimension;
        float sum = 0;
        for (int d = 0; d < dimension; d++) {
            sum += matrix[ba + d] * matrix[bb + d];
        }
        return sum;
    }
}
