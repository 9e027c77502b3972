package dev.memfas.core.vector;

/**
 * How the storage of an index grows: in blocks of a fixed number of slots, every block but the last full, the last
 * growing by doubling from {@value #MIN_CAPACITY} slots (a whole number of int8 tiles), so a small namespace holds
 * kilobytes, not a whole block. The rows and each code layout keep their own arrays and follow this rule.
 */
final class Blocks {
    /** The fewest slots a block is allocated with. */
    static final int MIN_CAPACITY = 64;

    private Blocks() {}

    /** How many blocks of {@code blockSize} slots hold {@code slots} slots. */
    static int count(int slots, int blockSize) {
        return (slots + blockSize - 1) / blockSize;
    }

    /**
     * The capacity block {@code b} needs for slots {@code [0, needed)}, given the one it has: unchanged if it is
     * enough, else at least doubled, rounded up to whole tiles and never more than a block.
     */
    static int capacity(int b, int needed, int blockSize, int current) {
        int slots = Math.min(blockSize, needed - b * blockSize);
        if (slots <= current) {
            return current;
        }
        int grown = Math.max(slots, Math.max(2 * current, MIN_CAPACITY));
        int tiles = (grown + VectorKernels.TILE - 1) / VectorKernels.TILE;
        return Math.min(blockSize, tiles * VectorKernels.TILE);
    }
}
