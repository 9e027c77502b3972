package dev.memfas.core.vector;

import dev.memfas.spi.Embeddings;

/** Small vector operations outside the scan loop. */
public final class Vectors {
    private Vectors() {}

    /** A unit-length copy of the vector (a zero vector stays zero). */
    public static float[] normalizedCopy(float[] v, int dimension) {
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
    public static float inverseNorm(float[] v, int dimension) {
        Embeddings.checkVector(v, dimension, "vector");
        double sum = 0;
        for (float x : v) {
            sum += (double) x * x;
        }
        return sum == 0 ? 0f : (float) (1.0 / Math.sqrt(sum));
    }

    /** Dot product of row {@code row} of a flat matrix with a vector. */
    public static float dotRow(float[] matrix, int row, float[] v) {
        return dot(matrix, row * v.length, v, 0, v.length);
    }

    /**
     * Dot product of {@code length} floats of {@code x} from {@code xOffset} and of {@code y} from {@code yOffset}:
     * with the Vector API when {@link VectorKernels} has chosen it, else {@link #scalarDot}.
     */
    public static float dot(float[] x, int xOffset, float[] y, int yOffset, int length) {
        VectorKernels.Int8Kernel kernel = VectorKernels.INT8;
        return kernel != null ? kernel.dot(x, xOffset, y, yOffset, length) : scalarDot(x, xOffset, y, yOffset, length);
    }

    /**
     * The dot product in plain Java: eight independent sums let the CPU overlap additions one sum would chain (the JIT
     * does not reorder float additions itself).
     */
    public static float scalarDot(float[] x, int xOffset, float[] y, int yOffset, int length) {
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        float s4 = 0;
        float s5 = 0;
        float s6 = 0;
        float s7 = 0;
        int d = 0;
        for (; d + 8 <= length; d += 8) {
            int i = xOffset + d;
            int j = yOffset + d;
            s0 += x[i] * y[j];
            s1 += x[i + 1] * y[j + 1];
            s2 += x[i + 2] * y[j + 2];
            s3 += x[i + 3] * y[j + 3];
            s4 += x[i + 4] * y[j + 4];
            s5 += x[i + 5] * y[j + 5];
            s6 += x[i + 6] * y[j + 6];
            s7 += x[i + 7] * y[j + 7];
        }
        for (; d < length; d++) {
            s0 += x[xOffset + d] * y[yOffset + d];
        }
        return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
    }
}
