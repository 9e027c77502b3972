package dev.memfas.core.vector;

import java.util.Arrays;

/**
 * 16-bit codes {@code round(v[d] * S)} with one scale {@code S} for every unit vector (Java 17, or no Vector API), in
 * blocks of {@value #BLOCK} slots, one {@code short[BLOCK]} column per dimension. The scan runs
 * {@code acc[j] = (short) (acc[j] + q[d] * column[j])} over contiguous, separate arrays of one element size, a loop the
 * JIT auto-vectorizes on JDK 17 without flags (a single flat array would not be: the JIT cannot prove the accumulator
 * and the data don't overlap; mixed sizes, bytes into ints, are not vectorized before JDK 20). Half the float bytes.
 * The sums wrap around in 16 bits, which is exact as long as the final sum fits: {@code S} is chosen so that even the
 * sum of two unit vectors' codes stays within a {@code short} ({@link #scale(int)}).
 */
final class ShortCodes extends CodeLayout {
    /**
     * Slots per block. The scan reads one column of codes per dimension in turn, and the hardware prefetcher keeps up
     * only with long columns: on two threads, 100K vectors scanned in 9.1 ms with columns of 1 KB, 4.9 ms with 4 KB and
     * 3.7 ms with 16 KB (8,192 slots).
     */
    static final int BLOCK = 8192;
    /**
     * The smallest scale worth scanning with: below it (dimensions above about 88,000) a code step would be over 3% of
     * a unit, and every vector is scored exactly instead.
     */
    static final int MIN_SCALE = 32;

    private final int dimension;
    private final int scale;
    private short[][][] blocks = new short[0][][];
    private int allocatedBlocks;

    ShortCodes(int dimension) {
        this.dimension = dimension;
        this.scale = scale(dimension);
    }

    /**
     * The scale {@code S} of the codes of unit vectors of this dimension: the largest for which the sum of the products
     * of two unit vectors' codes always fits in a {@code short}. A unit vector's codes have a length of at most
     * {@code S + √dimension / 2} (each rounding moves a code by at most one half), so two of them have a dot product of
     * at most {@code (S + √dimension / 2)²}, which must not exceed 32,767. For 384 dimensions {@code S} is 171: a code
     * step of 0.6% of a unit.
     */
    static int scale(int dimension) {
        return (int) Math.floor(Math.sqrt(Short.MAX_VALUE) - Math.sqrt(dimension) / 2);
    }

    @Override
    int blockSize() {
        return BLOCK;
    }

    @Override
    void ensureCapacity(int needed) {
        int blockCount = Blocks.count(needed, BLOCK);
        if (blockCount > blocks.length) {
            blocks = Arrays.copyOf(blocks, Math.max(blockCount, 2 * blocks.length));
        }
        for (int b = Math.max(0, allocatedBlocks - 1); b < blockCount; b++) {
            int current = blocks[b] == null ? 0 : blocks[b][0].length;
            int capacity = Blocks.capacity(b, needed, BLOCK, current);
            if (capacity > current) {
                short[][] columns = new short[dimension][];
                for (int d = 0; d < dimension; d++) {
                    columns[d] = blocks[b] == null ? new short[capacity] : Arrays.copyOf(blocks[b][d], capacity);
                }
                blocks[b] = columns;
            }
        }
        allocatedBlocks = Math.max(allocatedBlocks, blockCount);
    }

    @Override
    void encode(int slot, float[] unit) {
        short[][] columns = blocks[slot / BLOCK];
        int j = slot % BLOCK;
        for (int d = 0; d < dimension; d++) {
            columns[d][j] = (short) Math.round(unit[d] * scale);
        }
    }

    @Override
    void move(int from, int to) {
        short[][] source = blocks[from / BLOCK];
        short[][] target = blocks[to / BLOCK];
        int fj = from % BLOCK;
        int tj = to % BLOCK;
        for (int d = 0; d < dimension; d++) {
            target[d][tj] = source[d][fj];
        }
    }

    @Override
    void clear(int slot) {
        short[][] columns = blocks[slot / BLOCK];
        int j = slot % BLOCK;
        for (int d = 0; d < dimension; d++) {
            columns[d][j] = 0;
        }
    }

    @Override
    boolean tooCoarse() {
        return scale < MIN_SCALE;
    }

    /** The query's codes, from a unit-length copy of it so that the sums stay within a {@code short}. */
    @Override
    void prepare(float[] query, SearchScratch scratch) {
        float unit = Vectors.inverseNorm(query, dimension);
        short[] codes = scratch.shortQuery(dimension);
        for (int d = 0; d < dimension; d++) {
            codes[d] = (short) Math.round(query[d] * unit * scale);
        }
    }

    @Override
    void scan(float[] query, SearchScratch scratch, int part, int from, int to, ScanFloor floor, TopScores top) {
        short[] codes = scratch.shortQuery(dimension);
        short[] acc = scratch.shortAccumulator(part, BLOCK);
        for (int b = from / BLOCK; b * BLOCK < to; b++) {
            int base = b * BLOCK;
            int lo = Math.max(from, base) - base;
            int hi = Math.min(to, base + BLOCK) - base;
            score(blocks[b], codes, acc, lo, hi);
            float below = floor.below();
            float threshold = Math.max(top.threshold(), below);
            for (int j = lo; j < hi; j++) {
                if (acc[j] > threshold) {
                    top.offer(base + j, acc[j]);
                    threshold = Math.max(top.threshold(), below);
                }
            }
            floor.raise(top.threshold());
        }
    }

    /**
     * Sets {@code acc[j]}, for {@code j} in {@code [lo, hi)}, to the sum of the products of slot {@code j}'s codes and
     * the query's (in units of {@code 1 / S²}).
     */
    private static void score(short[][] columns, short[] query, short[] acc, int lo, int hi) {
        Arrays.fill(acc, lo, hi, (short) 0);
        int d = 0;
        // Four dimensions per pass load and store the accumulators a quarter as often: 1.6 times as fast, in the cache
        // and out of it.
        for (; d + 4 <= query.length; d += 4) {
            int q0 = query[d];
            int q1 = query[d + 1];
            int q2 = query[d + 2];
            int q3 = query[d + 3];
            short[] c0 = columns[d];
            short[] c1 = columns[d + 1];
            short[] c2 = columns[d + 2];
            short[] c3 = columns[d + 3];
            for (int j = lo; j < hi; j++) {
                acc[j] = (short) (acc[j] + q0 * c0[j] + q1 * c1[j] + q2 * c2[j] + q3 * c3[j]);
            }
        }
        for (; d < query.length; d++) {
            int q = query[d];
            short[] column = columns[d];
            for (int j = lo; j < hi; j++) {
                acc[j] = (short) (acc[j] + q * column[j]);
            }
        }
    }

    /**
     * Both the vector's and the query's codes are rounded: two errors of step / √12 each (unit vectors), in the scan's
     * units of {@code 1 / S²}: about 0.024 of a cosine.
     */
    @Override
    double errorMargin(int[] slots, int count, float[] query) {
        return 2 * ERROR_SIGMAS * Math.sqrt(2.0 / 12) * scale;
    }

    /** The scan scores a unit-length copy of the query in units of {@code 1 / S²}: {@code S²} over its length. */
    @Override
    double scanUnitsPerExactUnit(float[] query) {
        double length = Math.sqrt(Vectors.scalarDot(query, 0, query, 0, dimension));
        return length == 0 ? 0 : (double) scale * scale / length;
    }
}
