package dev.memfas.core.vector;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The int8 block scan on the Vector API. Codes come in tiles of {@link VectorKernels#TILE} slots (see
 * {@link VectorKernels.Int8Kernel}), so a tile is one contiguous run the hardware prefetcher follows. Eight float
 * accumulators (four per dimension, two dimensions at a time) stay in registers while the dimensions go by, each step
 * widening a run of codes to floats and adding code × query component with one fused multiply-add. Float products keep
 * the query exact and avoid the slow 32-bit integer multiply.
 *
 * <p>Lives in the multi-release part of the jar (Java 21+) and is loaded only when {@code jdk.incubator.vector} is in
 * the boot layer; see {@link VectorKernels}.
 */
final class PanamaInt8Kernel implements VectorKernels.Int8Kernel {
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Byte> BYTES =
            VectorSpecies.of(byte.class, VectorShape.forBitSize(FLOATS.length() * Byte.SIZE));
    private static final int LANES = FLOATS.length();
    private static final int TILE = VectorKernels.TILE;

    PanamaInt8Kernel() {
        if (FLOATS.vectorBitSize() < 256 || TILE % (4 * LANES) != 0) {
            // With 128-bit registers (or none) the widening costs more than it saves over the 16-bit scan.
            throw new UnsupportedOperationException("preferred float vectors are " + FLOATS.vectorBitSize() + " bits");
        }
    }

    @Override
    public void score(byte[] codes, float[] query, float[] acc, int from, int to) {
        int dimension = query.length;
        for (int tile = from / TILE; tile * TILE < to; tile++) {
            int base = tile * TILE * dimension;
            for (int lane = 0; lane < TILE; lane += 4 * LANES) {
                // Two dimensions per step into two sets of accumulators: eight independent chains of fused
                // multiply-adds keep the units busy where four waited on each other's latency (a third less time).
                FloatVector a0 = FloatVector.zero(FLOATS);
                FloatVector a1 = FloatVector.zero(FLOATS);
                FloatVector a2 = FloatVector.zero(FLOATS);
                FloatVector a3 = FloatVector.zero(FLOATS);
                FloatVector b0 = FloatVector.zero(FLOATS);
                FloatVector b1 = FloatVector.zero(FLOATS);
                FloatVector b2 = FloatVector.zero(FLOATS);
                FloatVector b3 = FloatVector.zero(FLOATS);
                int d = 0;
                int at = base + lane;
                for (; d + 1 < dimension; d += 2, at += 2 * TILE) {
                    FloatVector q0 = FloatVector.broadcast(FLOATS, query[d]);
                    FloatVector q1 = FloatVector.broadcast(FLOATS, query[d + 1]);
                    a0 = widen(codes, at).fma(q0, a0);
                    a1 = widen(codes, at + LANES).fma(q0, a1);
                    a2 = widen(codes, at + 2 * LANES).fma(q0, a2);
                    a3 = widen(codes, at + 3 * LANES).fma(q0, a3);
                    b0 = widen(codes, at + TILE).fma(q1, b0);
                    b1 = widen(codes, at + TILE + LANES).fma(q1, b1);
                    b2 = widen(codes, at + TILE + 2 * LANES).fma(q1, b2);
                    b3 = widen(codes, at + TILE + 3 * LANES).fma(q1, b3);
                }
                if (d < dimension) {
                    FloatVector q0 = FloatVector.broadcast(FLOATS, query[d]);
                    a0 = widen(codes, at).fma(q0, a0);
                    a1 = widen(codes, at + LANES).fma(q0, a1);
                    a2 = widen(codes, at + 2 * LANES).fma(q0, a2);
                    a3 = widen(codes, at + 3 * LANES).fma(q0, a3);
                }
                int j = tile * TILE + lane;
                a0.add(b0).intoArray(acc, j);
                a1.add(b1).intoArray(acc, j + LANES);
                a2.add(b2).intoArray(acc, j + 2 * LANES);
                a3.add(b3).intoArray(acc, j + 3 * LANES);
            }
        }
    }

    @Override
    public float dot(float[] x, int xOffset, float[] y, int yOffset, int length) {
        FloatVector a0 = FloatVector.zero(FLOATS);
        FloatVector a1 = FloatVector.zero(FLOATS);
        int i = 0;
        for (; i + 2 * LANES <= length; i += 2 * LANES) {
            a0 = FloatVector.fromArray(FLOATS, x, xOffset + i).fma(FloatVector.fromArray(FLOATS, y, yOffset + i), a0);
            a1 = FloatVector.fromArray(FLOATS, x, xOffset + i + LANES)
                    .fma(FloatVector.fromArray(FLOATS, y, yOffset + i + LANES), a1);
        }
        // The lanes are added in order, not with reduceLanes(ADD): that leaves the order to the implementation, and its
        // compiled and interpreted forms differ in the last bit, so one query scored before and after the JIT compiled
        // this method would rank near-ties apart.
        FloatVector lanes = a0.add(a1);
        float sum = 0;
        for (int k = 0; k < LANES; k++) {
            sum += lanes.lane(k);
        }
        for (; i < length; i++) {
            sum += x[xOffset + i] * y[yOffset + i];
        }
        return sum;
    }

    private static FloatVector widen(byte[] codes, int offset) {
        return (FloatVector) ByteVector.fromArray(BYTES, codes, offset).convertShape(VectorOperators.B2F, FLOATS, 0);
    }
}
