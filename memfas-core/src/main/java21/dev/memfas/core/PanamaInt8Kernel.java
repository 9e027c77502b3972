package dev.memfas.core;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The int8 block scan on the Vector API: for each run of {@code 4 × lanes} slots, four int accumulators stay in
 * registers while the dimensions go by, each step widening one run of codes to ints and adding code × query code.
 *
 * <p>Lives in the multi-release part of the jar (Java 21+) and is loaded only when {@code jdk.incubator.vector} is in
 * the boot layer; see {@link VectorKernels}.
 */
final class PanamaInt8Kernel implements VectorKernels.Int8Kernel {
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Byte> BYTES =
            VectorSpecies.of(byte.class, VectorShape.forBitSize(INTS.length() * Byte.SIZE));
    private static final int LANES = INTS.length();

    PanamaInt8Kernel() {
        if (INTS.vectorBitSize() < 256) {
            // With 128-bit registers (or none) the widening costs more than it saves over the float scan.
            throw new UnsupportedOperationException("preferred int vectors are " + INTS.vectorBitSize() + " bits");
        }
    }

    @Override
    public void score(byte[][] codes, byte[] query, int[] acc, int count) {
        int dimension = query.length;
        int step = 4 * LANES;
        int j = 0;
        for (; j + step <= count; j += step) {
            IntVector a0 = IntVector.zero(INTS);
            IntVector a1 = IntVector.zero(INTS);
            IntVector a2 = IntVector.zero(INTS);
            IntVector a3 = IntVector.zero(INTS);
            for (int d = 0; d < dimension; d++) {
                byte[] column = codes[d];
                int q = query[d];
                a0 = a0.add(widen(column, j).mul(q));
                a1 = a1.add(widen(column, j + LANES).mul(q));
                a2 = a2.add(widen(column, j + 2 * LANES).mul(q));
                a3 = a3.add(widen(column, j + 3 * LANES).mul(q));
            }
            a0.intoArray(acc, j);
            a1.intoArray(acc, j + LANES);
            a2.intoArray(acc, j + 2 * LANES);
            a3.intoArray(acc, j + 3 * LANES);
        }
        for (; j < count; j++) {
            int sum = 0;
            for (int d = 0; d < dimension; d++) {
                sum += query[d] * codes[d][j];
            }
            acc[j] = sum;
        }
    }

    private static IntVector widen(byte[] column, int offset) {
        return (IntVector) ByteVector.fromArray(BYTES, column, offset).convertShape(VectorOperators.B2I, INTS, 0);
    }
}
