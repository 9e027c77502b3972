package dev.memfas.core;

import dev.memfas.Embeddings;

/** Small vector operations outside the scan loop. */
final class Vectors {
    private Vectors() {}

    /** A unit-length copy of the vector (a zero vector stays zero). */
    static float[] normalizedCopy(float[] v, int dimension) {
        float inv = inverseNorm(v, dimension);
        float[] out = new float[dimension];
        for (int d = 0; d < dimension; d++) {
            out[d] = v[d] * inv;
        }
        return out;
    }

    /**
     * What to multiply the vector by to make it unit length (0 for a zero vector), after checking its dimension and
     * that every component is finite.
     */
    static float inverseNorm(float[] v, int dimension) {
        Embeddings.checkVector(v, dimension, "vector");
        double sum = 0;
        for (float x : v) {
            sum += (double) x * x;
        }
        return sum == 0 ? 0f : (float) (1.0 / Math.sqrt(sum));
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
