package dev.memfas.core;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The exact dot-product index of one namespace's L2-normalized vectors.
 *
 * <p>Layout: vectors are kept in blocks of {@value #BLOCK} slots, each block one {@code float[BLOCK]} column per
 * dimension. A scan then runs {@code acc[j] += q[d] * column[j]} over contiguous, separate arrays, a loop the JIT
 * auto-vectorizes on JDK 17 without flags (a single flat array would not be: the JIT cannot prove the accumulator and
 * the data don't overlap). Removal moves the last slot into the hole, so slots stay dense.
 *
 * <p>With the Vector API ({@link VectorKernels}) the scan reads int8 codes instead, each vector scaled by its largest
 * component: a quarter of the bytes. A block's codes are tiles of {@link VectorKernels#TILE} slots, each tile every
 * dimension's codes of its slots in turn, so the kernel reads one contiguous run per tile. The best {@code 2k + 64} by
 * the int8 scores are then scored again exactly from the floats, which this mode keeps row by row outside the heap
 * (direct buffers): re-scoring and gathering a candidate reads one contiguous row, and the heap holds only what the
 * scan reads.
 *
 * <p>Thread-safe: scans share a read lock, writes take the write lock.
 */
final class VectorIndex {
    static final int BLOCK = 512;
    /**
     * How many more than the requested hits the int8 scan keeps for exact re-scoring: quantization moves a score by
     * about 1% of its value, so the true best {@code k} are found among the approximate best {@code 2k + 64}.
     */
    static final int RESCORE_EXTRA = 64;
    /**
     * The fewest blocks worth handing to another thread: 8 blocks of 384 dimensions are 6 MB of floats, a scan of a
     * few hundred microseconds, well above the cost of waking a helper.
     */
    static final int MIN_BLOCKS_PER_PART = 8;

    private final int dimension;
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, Integer> slotById = new HashMap<>();
    private final VectorKernels.Int8Kernel int8;
    /** Without {@link #int8}: the floats, one {@code float[BLOCK]} column per dimension per block. */
    private float[][][] blocks = new float[0][][];
    /**
     * With {@link #int8}: the floats row by row, {@code BLOCK * dimension} per block, outside the heap. Only the
     * re-scored and gathered rows are read, a few hundred per turn, so the heap holds just the codes the scan reads.
     */
    private FloatBuffer[] rowBlocks = new FloatBuffer[0];
    /** With {@link #int8}: the codes, one tiled {@code byte[BLOCK * dimension]} per block, and each slot's scale. */
    private byte[][] codeBlocks = new byte[0][];
    private float[][] scaleBlocks = new float[0][];
    private int allocatedBlocks;
    private String[] ids = new String[0];
    private int size;

    VectorIndex(int dimension) {
        this(dimension, VectorKernels.INT8);
    }

    /** An index scanning with the given int8 kernel, or with the float loop when it is null. */
    VectorIndex(int dimension, VectorKernels.Int8Kernel int8) {
        if (dimension <= 0) {
            throw new IllegalArgumentException("vector dimension must be positive: " + dimension);
        }
        this.dimension = dimension;
        this.int8 = int8;
    }

    int size() {
        lock.readLock().lock();
        try {
            return size;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Adds or replaces one vector, normalizing a copy of it. */
    void put(String id, float[] vector) {
        putAll(List.of(id), List.of(vector));
    }

    /** Adds or replaces vectors, normalizing copies of them. */
    void putAll(List<String> memoryIds, List<float[]> vectors) {
        // Checked before the lock so a bad vector leaves the index untouched.
        float[] scales = new float[vectors.size()];
        for (int i = 0; i < scales.length; i++) {
            scales[i] = Vectors.inverseNorm(vectors.get(i), dimension);
        }
        lock.writeLock().lock();
        try {
            for (int i = 0; i < scales.length; i++) {
                String id = memoryIds.get(i);
                Integer slot = slotById.get(id);
                if (slot == null) {
                    slot = size++;
                    ensureCapacity(size);
                    ids[slot] = id;
                    slotById.put(id, slot);
                }
                write(slot, vectors.get(i), scales[i]);
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Removes vectors; unknown ids are ignored. */
    void removeAll(Iterable<String> memoryIds) {
        lock.writeLock().lock();
        try {
            for (String id : memoryIds) {
                Integer slot = slotById.remove(id);
                if (slot == null) {
                    continue;
                }
                int last = --size;
                if (slot != last) {
                    move(last, slot);
                    ids[slot] = ids[last];
                    slotById.put(ids[slot], slot);
                }
                ids[last] = null;
                clear(last);
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Scores every vector against the (normalized) query and keeps the best {@code k}. Large indexes are split into
     * runs of blocks scanned on up to {@code threads} threads.
     *
     * @return the hits, best first
     */
    Hits search(float[] query, int k, int threads) {
        lock.readLock().lock();
        try {
            int n = size;
            if (n == 0) {
                return Hits.EMPTY;
            }
            int keep = Math.min(k, n);
            int blockCount = (n + BLOCK - 1) / BLOCK;
            int parts = parts(blockCount, threads);
            TopScores[] tops = new TopScores[parts];
            TopScores top;
            if (int8 == null) {
                ScanThreads.run(parts, part -> tops[part] = scan(query, keep, n,
                        ScanThreads.start(blockCount, part, parts), ScanThreads.start(blockCount, part + 1, parts)));
                top = merge(tops);
            } else if (2L * keep + RESCORE_EXTRA >= n) {
                // The int8 scan would keep every slot for re-scoring anyway: score them all exactly at once.
                int[] all = new int[n];
                java.util.Arrays.setAll(all, i -> i);
                top = rescore(all, query, keep);
            } else {
                int approximate = 2 * keep + RESCORE_EXTRA;
                ScanThreads.run(parts, part -> tops[part] = scanCodes(query, approximate, n,
                        ScanThreads.start(blockCount, part, parts), ScanThreads.start(blockCount, part + 1, parts)));
                TopScores candidates = merge(tops);
                int[] approximateSlots = new int[candidates.size()];
                candidates.drainDescending(approximateSlots, new float[approximateSlots.length]);
                // Slot order reads the rows forwards.
                java.util.Arrays.sort(approximateSlots);
                top = rescore(approximateSlots, query, keep);
            }
            int[] slots = new int[top.size()];
            float[] scores = new float[top.size()];
            int m = top.drainDescending(slots, scores);
            String[] hitIds = new String[m];
            for (int i = 0; i < m; i++) {
                hitIds[i] = ids[slots[i]];
            }
            return new Hits(hitIds, scores, slots);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Into how many parts a scan of {@code blockCount} blocks is split: at least one, and never a part too small. */
    static int parts(int blockCount, int threads) {
        return Math.max(1, Math.min(threads, blockCount / MIN_BLOCKS_PER_PART));
    }

    /** Scans blocks {@code [fromBlock, toBlock)} of the first {@code n} slots. */
    private TopScores scan(float[] query, int k, int n, int fromBlock, int toBlock) {
        TopScores top = new TopScores(k);
        float[] acc = new float[BLOCK];
        for (int b = fromBlock; b < toBlock; b++) {
            int count = Math.min(BLOCK, n - b * BLOCK);
            scoreBlock(blocks[b], query, acc, count);
            int base = b * BLOCK;
            float threshold = top.threshold();
            for (int j = 0; j < count; j++) {
                if (acc[j] > threshold) {
                    top.offer(base + j, acc[j]);
                    threshold = top.threshold();
                }
            }
        }
        return top;
    }

    /** Scans blocks {@code [fromBlock, toBlock)} by their int8 codes, keeping the best {@code k} approximate scores. */
    private TopScores scanCodes(float[] query, int k, int n, int fromBlock, int toBlock) {
        TopScores top = new TopScores(k);
        float[] acc = new float[BLOCK];
        for (int b = fromBlock; b < toBlock; b++) {
            int count = Math.min(BLOCK, n - b * BLOCK);
            int8.score(codeBlocks[b], query, acc, count);
            float[] scales = scaleBlocks[b];
            int base = b * BLOCK;
            float threshold = top.threshold();
            for (int j = 0; j < count; j++) {
                float score = acc[j] * scales[j];
                if (score > threshold) {
                    top.offer(base + j, score);
                    threshold = top.threshold();
                }
            }
        }
        return top;
    }

    private static TopScores merge(TopScores[] parts) {
        TopScores top = parts[0];
        for (int p = 1; p < parts.length; p++) {
            top.offerAll(parts[p]);
        }
        return top;
    }

    /** The best {@code k} of the given slots by their exact float scores. */
    private TopScores rescore(int[] slots, float[] query, int k) {
        TopScores exact = new TopScores(k);
        float[] row = new float[dimension];
        for (int slot : slots) {
            rowBlocks[slot / BLOCK].get((slot % BLOCK) * dimension, row, 0, dimension);
            exact.offer(slot, Vectors.dot(row, 0, query, 0, dimension));
        }
        return exact;
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
            java.util.Arrays.fill(codes, (byte) 0);
            return 0f;
        }
        float step = max / 127f;
        for (int d = 0; d < codes.length; d++) {
            codes[d] = (byte) Math.round(v[d] * scale / step);
        }
        return step;
    }

    private void scoreBlock(float[][] columns, float[] query, float[] acc, int count) {
        java.util.Arrays.fill(acc, 0, count, 0f);
        for (int d = 0; d < dimension; d++) {
            float q = query[d];
            float[] column = columns[d];
            for (int j = 0; j < count; j++) {
                acc[j] += q * column[j];
            }
        }
    }

    /**
     * Copies the normalized vectors of the given ids into {@code out}, row {@code i} at {@code i * dimension}.
     *
     * @return for each id whether it had a vector (rows of missing ids are zero)
     */
    boolean[] gather(List<String> memoryIds, float[] out) {
        return gather(memoryIds, null, out);
    }

    /**
     * {@link #gather(List, float[])}, looking first in the slot each id had when a search returned it ({@code -1} or
     * a null array for none). A slot still holding its id is used as is, which spares a hash lookup that at 100K ids
     * is a few cache misses; one that changed since (removals move slots) is looked up again.
     */
    boolean[] gather(List<String> memoryIds, int[] slotHints, float[] out) {
        boolean[] present = new boolean[memoryIds.size()];
        lock.readLock().lock();
        try {
            for (int i = 0; i < present.length; i++) {
                String id = memoryIds.get(i);
                int hint = slotHints == null ? -1 : slotHints[i];
                int slot = hint >= 0 && hint < size && id.equals(ids[hint]) ? hint : slotById.getOrDefault(id, -1);
                int row = i * dimension;
                if (slot < 0) {
                    java.util.Arrays.fill(out, row, row + dimension, 0f);
                    continue;
                }
                present[i] = true;
                if (int8 != null) {
                    rowBlocks[slot / BLOCK].get((slot % BLOCK) * dimension, out, row, dimension);
                    continue;
                }
                float[][] columns = blocks[slot / BLOCK];
                int j = slot % BLOCK;
                for (int d = 0; d < dimension; d++) {
                    out[row + d] = columns[d][j];
                }
            }
        } finally {
            lock.readLock().unlock();
        }
        return present;
    }

    private void write(int slot, float[] v, float scale) {
        int b = slot / BLOCK;
        int j = slot % BLOCK;
        if (int8 == null) {
            float[][] columns = blocks[b];
            for (int d = 0; d < dimension; d++) {
                columns[d][j] = v[d] * scale;
            }
            return;
        }
        float[] scaled = new float[dimension];
        for (int d = 0; d < dimension; d++) {
            scaled[d] = v[d] * scale;
        }
        rowBlocks[b].put(j * dimension, scaled);
        byte[] codes = new byte[dimension];
        scaleBlocks[b][j] = quantize(v, scale, codes);
        byte[] tiles = codeBlocks[b];
        int at = codeOffset(j);
        for (int d = 0; d < dimension; d++, at += VectorKernels.TILE) {
            tiles[at] = codes[d];
        }
    }

    /** Where the code of dimension 0 of the block's slot {@code j} is; dimension {@code d} is {@code d * TILE} on. */
    private int codeOffset(int j) {
        return (j / VectorKernels.TILE) * VectorKernels.TILE * dimension + j % VectorKernels.TILE;
    }

    /** Copies slot {@code from} over slot {@code to}. */
    private void move(int from, int to) {
        int fb = from / BLOCK;
        int tb = to / BLOCK;
        int fj = from % BLOCK;
        int tj = to % BLOCK;
        if (int8 == null) {
            for (int d = 0; d < dimension; d++) {
                blocks[tb][d][tj] = blocks[fb][d][fj];
            }
            return;
        }
        rowBlocks[tb].put(tj * dimension, rowBlocks[fb], fj * dimension, dimension);
        byte[] fromTiles = codeBlocks[fb];
        byte[] toTiles = codeBlocks[tb];
        for (int d = 0, f = codeOffset(fj), t = codeOffset(tj); d < dimension; d++, f += VectorKernels.TILE,
                t += VectorKernels.TILE) {
            toTiles[t] = fromTiles[f];
        }
        scaleBlocks[tb][tj] = scaleBlocks[fb][fj];
    }

    /** Zeroes a freed slot, so a scan of a partial block adds nothing from it. */
    private void clear(int slot) {
        int b = slot / BLOCK;
        int j = slot % BLOCK;
        if (int8 == null) {
            for (int d = 0; d < dimension; d++) {
                blocks[b][d][j] = 0f;
            }
            return;
        }
        rowBlocks[b].put(j * dimension, new float[dimension]);
        for (int d = 0, at = codeOffset(j); d < dimension; d++, at += VectorKernels.TILE) {
            codeBlocks[b][at] = 0;
        }
        scaleBlocks[b][j] = 0f;
    }

    /** Allocates blocks up to the one holding slot {@code needed - 1}; only the arrays of references grow ahead. */
    private void ensureCapacity(int needed) {
        int blockCount = (needed + BLOCK - 1) / BLOCK;
        if (blockCount <= allocatedBlocks) {
            return;
        }
        if (blockCount * BLOCK > ids.length) {
            int references = Math.max(blockCount, 2 * allocatedBlocks);
            ids = java.util.Arrays.copyOf(ids, references * BLOCK);
            if (int8 == null) {
                blocks = java.util.Arrays.copyOf(blocks, references);
            } else {
                rowBlocks = java.util.Arrays.copyOf(rowBlocks, references);
                codeBlocks = java.util.Arrays.copyOf(codeBlocks, references);
                scaleBlocks = java.util.Arrays.copyOf(scaleBlocks, references);
            }
        }
        for (int b = allocatedBlocks; b < blockCount; b++) {
            if (int8 == null) {
                blocks[b] = new float[dimension][BLOCK];
            } else {
                rowBlocks[b] = ByteBuffer.allocateDirect(BLOCK * dimension * Float.BYTES).order(ByteOrder.nativeOrder())
                        .asFloatBuffer();
                codeBlocks[b] = new byte[BLOCK * dimension];
                scaleBlocks[b] = new float[BLOCK];
            }
        }
        allocatedBlocks = blockCount;
    }

    /** The result of a scan: ids and cosine similarities, best first, and the slots the ids had then. */
    record Hits(String[] ids, float[] scores, int[] slots) {
        static final Hits EMPTY = new Hits(new String[0], new float[0], new int[0]);

        int size() {
            return ids.length;
        }
    }
}
