package dev.memfas.core.vector;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.Arrays;

/**
 * The unit vectors of an index row by row, outside the heap, in direct buffers of one block each: a turn reads only
 * the few hundred rows it re-scores and gathers, so the heap holds just what the scan reads. 1.5 KB per 384-dimension
 * vector, counted against {@code -XX:MaxDirectMemorySize}. Guarded by the index's lock.
 */
final class FloatRows {
    /** Floats in a 64-byte cache line. */
    private static final int FLOATS_PER_LINE = 16;

    private final int dimension;
    private final int blockSize;
    private FloatBuffer[] blocks = new FloatBuffer[0];
    private int allocatedBlocks;

    FloatRows(int dimension, int blockSize) {
        this.dimension = dimension;
        this.blockSize = blockSize;
    }

    /** Makes room for slots {@code [0, needed)}. */
    void ensureCapacity(int needed) {
        int blockCount = Blocks.count(needed, blockSize);
        if (blockCount > blocks.length) {
            blocks = Arrays.copyOf(blocks, Math.max(blockCount, 2 * blocks.length));
        }
        for (int b = Math.max(0, allocatedBlocks - 1); b < blockCount; b++) {
            int current = capacity(b);
            int capacity = Blocks.capacity(b, needed, blockSize, current);
            if (capacity > current) {
                FloatBuffer rows = ByteBuffer.allocateDirect(capacity * dimension * Float.BYTES)
                        .order(ByteOrder.nativeOrder()).asFloatBuffer();
                if (blocks[b] != null) {
                    rows.put(0, blocks[b], 0, blocks[b].capacity());
                }
                blocks[b] = rows;
            }
        }
        allocatedBlocks = Math.max(allocatedBlocks, blockCount);
    }

    private int capacity(int b) {
        return blocks[b] == null ? 0 : blocks[b].capacity() / dimension;
    }

    void write(int slot, float[] unit) {
        blocks[slot / blockSize].put((slot % blockSize) * dimension, unit);
    }

    /** Copies slot {@code slot}'s row to {@code out} from {@code offset} on. */
    void read(int slot, float[] out, int offset) {
        blocks[slot / blockSize].get((slot % blockSize) * dimension, out, offset, dimension);
    }

    /** Copies slot {@code from}'s row over slot {@code to}'s. */
    void move(int from, int to) {
        blocks[to / blockSize].put((to % blockSize) * dimension, blocks[from / blockSize],
                (from % blockSize) * dimension, dimension);
    }

    /** Zeroes slot {@code slot}'s row. */
    void clear(int slot) {
        FloatBuffer rows = blocks[slot / blockSize];
        int at = (slot % blockSize) * dimension;
        for (int d = 0; d < dimension; d++) {
            rows.put(at + d, 0f);
        }
    }

    /** Defeats dead-code elimination of {@link #touch}. */
    @SuppressWarnings("unused")
    private static volatile float touched;

    /**
     * Reads one float of every cache line of the rows of {@code slots[from, to)} (negative slots skipped) before they
     * are copied. The rows of a turn are scattered over the buffers and rarely cached; copied one after the other, each
     * row waits for its misses in turn, about a microsecond per row. These loads do not depend on each other, so the
     * processor keeps many of them in flight at once, and the copies that follow find the rows in the cache.
     */
    void touch(int[] slots, int from, int to) {
        float sum = 0;
        for (int i = from; i < to; i++) {
            int slot = slots[i];
            if (slot < 0) {
                continue;
            }
            FloatBuffer rows = blocks[slot / blockSize];
            int at = (slot % blockSize) * dimension;
            for (int d = 0; d < dimension; d += FLOATS_PER_LINE) {
                sum += rows.get(at + d);
            }
        }
        touched = sum;
    }
}
