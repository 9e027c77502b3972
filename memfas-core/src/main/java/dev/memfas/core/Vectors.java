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
        return dot(matrix, row * v.length, v, 0, v.length);
    }

    /**
     * Dot product of {@code length} floats of {@code x} from {@code xOffset} and of {@code y} from {@code yOffset}:
     * with the Vector API when {@link VectorKernels} has chosen it, else {@link #scalarDot}.
     */
    static float dot(float[] x, int xOffset, float[] y, int yOffset, int length) {
        VectorKernels.Int8Kernel kernel = VectorKernels.INT8;
        return kernel != null ? kernel.dot(x, xOffset, y, yOffset, length) : scalarDot(x, xOffset, y, yOffset, length);
    }

    /** The dot product in plain Java: four independent sums let the CPU overlap additions one sum would chain. */
    static float scalarDot(float[] x, int xOffset, float[] y, int yOffset, int length) {
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        int d = 0;
        for (; d + 4 <= length; d += 4) {
            s0 += x[xOffset + d] * y[yOffset + d];
            s1 += x[xOffset + d + 1] * y[yOffset + d + 1];
            s2 += x[xOffset + d + 2] * y[yOffset + d + 2];
            s3 += x[xOffset + d + 3] * y[yOffset + d + 3];
        }
        for (; d < length; d++) {
            s0 += x[xOffset + d] * y[yOffset + d];
        }
        return (s0 + s1) + (s2 + s3);
    }
}
