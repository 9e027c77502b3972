package dev.memfas.core.vector;

import java.util.Arrays;

/**
 * int8 codes, each vector scaled by its largest component, scanned by the Vector API kernel (Java 21+ with
 * {@code --add-modules jdk.incubator.vector}). Blocks hold {@value #BLOCK} slots made of tiles of
 * {@link VectorKernels#TILE} slots, each tile every dimension's codes of its slots in turn, so the kernel reads one
 * contiguous run per tile. A quarter of the float bytes.
 */
final class Int8Tiles extends CodeLayout {
    /**
     * Slots per block. The kernel reads tiles, not columns, so long blocks do not help it; and a block's codes are one
     * array, which at 512 slots of 384 dimensions (196 KB) stays well below the size the G1 collector gives a region of
     * its own (a "humongous" object, whose unused rest of the region is lost).
     */
    static final int BLOCK = 512;

    private final int dimension;
    private final VectorKernels.Int8Kernel kernel;
    /** One tiled {@code byte[BLOCK * dimension]} per block. */
    private byte[][] codeBlocks = new byte[0][];
    /** Each slot's step: what its codes are multiplied by to give back its components. */
    private float[][] stepBlocks = new float[0][];
    private int allocatedBlocks;

    Int8Tiles(int dimension, VectorKernels.Int8Kernel kernel) {
        this.dimension = dimension;
        this.kernel = kernel;
    }

    @Override
    int blockSize() {
        return BLOCK;
    }

    @Override
    void ensureCapacity(int needed) {
        int blockCount = Blocks.count(needed, BLOCK);
        if (blockCount > codeBlocks.length) {
            int references = Math.max(blockCount, 2 * codeBlocks.length);
            codeBlocks = Arrays.copyOf(codeBlocks, references);
            stepBlocks = Arrays.copyOf(stepBlocks, references);
        }
        for (int b = Math.max(0, allocatedBlocks - 1); b < blockCount; b++) {
            int current = stepBlocks[b] == null ? 0 : stepBlocks[b].length;
            int capacity = Blocks.capacity(b, needed, BLOCK, current);
            if (capacity > current) {
                // The tiled layout of a smaller capacity is a prefix of a larger one's.
                codeBlocks[b] = codeBlocks[b] == null ? new byte[capacity * dimension]
                        : Arrays.copyOf(codeBlocks[b], capacity * dimension);
                stepBlocks[b] = stepBlocks[b] == null ? new float[capacity] : Arrays.copyOf(stepBlocks[b], capacity);
            }
        }
        allocatedBlocks = Math.max(allocatedBlocks, blockCount);
    }

    @Override
    void encode(int slot, float[] unit) {
        int b = slot / BLOCK;
        int j = slot % BLOCK;
        byte[] codes = new byte[dimension];
        stepBlocks[b][j] = quantize(unit, 1f, codes);
        byte[] tiles = codeBlocks[b];
        for (int d = 0, at = codeOffset(j); d < dimension; d++, at += VectorKernels.TILE) {
            tiles[at] = codes[d];
        }
    }

    /**
     * Writes {@code round(v[d] * scale / s)} to {@code codes}, where {@code s} makes the largest component 127.
     *
     * @return {@code s}, what a code is multiplied by to give back the (scaled) component; 0 for a zero vector
     */
    static float quantize(float[] v, float scale, byte[] codes) {
        float max = 0;
        for (int d = 0; d < codes.length; d++) {
            max = Math.max(max, Math.abs(v[d] * scale));
        }
        if (max == 0) {
            Arrays.fill(codes, (byte) 0);
            return 0f;
        }
        float step = max / 127f;
        for (int d = 0; d < codes.length; d++) {
            codes[d] = (byte) Math.round(v[d] * scale / step);
        }
        return step;
    }

    /** Where the code of dimension 0 of a block's slot {@code j} is; dimension {@code d} is {@code d * TILE} on. */
    private int codeOffset(int j) {
        return (j / VectorKernels.TILE) * VectorKernels.TILE * dimension + j % VectorKernels.TILE;
    }

    @Override
    void move(int from, int to) {
        byte[] source = codeBlocks[from / BLOCK];
        byte[] target = codeBlocks[to / BLOCK];
        int fj = from % BLOCK;
        int tj = to % BLOCK;
        for (int d = 0, f = codeOffset(fj), t = codeOffset(tj); d < dimension; d++, f += VectorKernels.TILE,
                t += VectorKernels.TILE) {
            target[t] = source[f];
        }
        stepBlocks[to / BLOCK][tj] = stepBlocks[from / BLOCK][fj];
    }

    @Override
    void clear(int slot) {
        int b = slot / BLOCK;
        int j = slot % BLOCK;
        for (int d = 0, at = codeOffset(j); d < dimension; d++, at += VectorKernels.TILE) {
            codeBlocks[b][at] = 0;
        }
        stepBlocks[b][j] = 0f;
    }

    @Override
    boolean tooCoarse() {
        return false;
    }

    /** The kernel multiplies the float query itself: nothing to prepare. */
    @Override
    void prepare(float[] query, SearchScratch scratch) {}

    @Override
    void scan(float[] query, SearchScratch scratch, int part, int from, int to, ScanFloor floor, TopScores top) {
        float[] acc = scratch.floatAccumulator(part, BLOCK);
        for (int b = from / BLOCK; b * BLOCK < to; b++) {
            int base = b * BLOCK;
            int lo = Math.max(from, base) - base;
            int hi = Math.min(to, base + BLOCK) - base;
            kernel.score(codeBlocks[b], query, acc, lo, hi);
            float[] steps = stepBlocks[b];
            float below = floor.below();
            float threshold = Math.max(top.threshold(), below);
            for (int j = lo; j < hi; j++) {
                float score = acc[j] * steps[j];
                if (score > threshold) {
                    top.offer(base + j, score);
                    threshold = Math.max(top.threshold(), below);
                }
            }
            floor.raise(top.threshold());
        }
    }

    /**
     * Only the vector is rounded, each by its own step; the query enters by its length: about 0.002 of a cosine.
     */
    @Override
    double errorMargin(int[] slots, int count, float[] query) {
        float largestStep = 0;
        for (int i = 0; i < count; i++) {
            int slot = slots[i];
            largestStep = Math.max(largestStep, stepBlocks[slot / BLOCK][slot % BLOCK]);
        }
        double queryLength = Math.sqrt(Vectors.scalarDot(query, 0, query, 0, dimension));
        return 2 * ERROR_SIGMAS * largestStep / Math.sqrt(12) * queryLength;
    }

    /** The kernel multiplies the float query: the scales agree. */
    @Override
    double scanUnitsPerExactUnit(float[] query) {
        return 1.0;
    }
}
