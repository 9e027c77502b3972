package dev.memfas.core;

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
 * <p>Thread-safe: scans share a read lock, writes take the write lock.
 */
final class VectorIndex {
    static final int BLOCK = 512;
    static final String SCAN_IMPLEMENTATION = "float columns, auto-vectorized by the JIT";
    /**
     * The fewest blocks worth handing to another thread: 8 blocks of 384 dimensions are 6 MB of floats, a scan of a
     * few hundred microseconds, well above the cost of waking a helper.
     */
    static final int MIN_BLOCKS_PER_PART = 8;

    private final int dimension;
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, Integer> slotById = new HashMap<>();
    private float[][][] blocks = new float[0][][];
    private String[] ids = new String[0];
    private int size;

    VectorIndex(int dimension) {
        if (dimension <= 0) {
            throw new IllegalArgumentException("vector dimension must be positive: " + dimension);
        }
        this.dimension = dimension;
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
                    float[][] from = blocks[last / BLOCK];
                    float[][] to = blocks[slot / BLOCK];
                    int fj = last % BLOCK;
                    int tj = slot % BLOCK;
                    for (int d = 0; d < dimension; d++) {
                        to[d][tj] = from[d][fj];
                    }
                    ids[slot] = ids[last];
                    slotById.put(ids[slot], slot);
                }
                ids[last] = null;
                float[][] lastBlock = blocks[last / BLOCK];
                for (int d = 0; d < dimension; d++) {
                    lastBlock[d][last % BLOCK] = 0f;
                }
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
            int parts = Math.max(1, Math.min(threads, blockCount / MIN_BLOCKS_PER_PART));
            TopScores[] tops = new TopScores[parts];
            ScanThreads.run(parts, part -> {
                int from = (int) ((long) blockCount * part / parts);
                int to = (int) ((long) blockCount * (part + 1) / parts);
                tops[part] = scan(query, keep, n, from, to);
            });
            TopScores top = tops[0];
            for (int p = 1; p < parts; p++) {
                top.offerAll(tops[p]);
            }
            int[] slots = new int[top.size()];
            float[] scores = new float[top.size()];
            int m = top.drainDescending(slots, scores);
            String[] hitIds = new String[m];
            for (int i = 0; i < m; i++) {
                hitIds[i] = ids[slots[i]];
            }
            return new Hits(hitIds, scores);
        } finally {
            lock.readLock().unlock();
        }
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
        boolean[] present = new boolean[memoryIds.size()];
        lock.readLock().lock();
        try {
            for (int i = 0; i < present.length; i++) {
                Integer slot = slotById.get(memoryIds.get(i));
                int row = i * dimension;
                if (slot == null) {
                    java.util.Arrays.fill(out, row, row + dimension, 0f);
                    continue;
                }
                present[i] = true;
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
        float[][] columns = blocks[slot / BLOCK];
        int j = slot % BLOCK;
        for (int d = 0; d < dimension; d++) {
            columns[d][j] = v[d] * scale;
        }
    }

    private void ensureCapacity(int needed) {
        int blockCount = (needed + BLOCK - 1) / BLOCK;
        if (blockCount > blocks.length) {
            float[][][] grown = java.util.Arrays.copyOf(blocks, Math.max(blockCount, blocks.length * 2));
            for (int b = blocks.length; b < grown.length; b++) {
                grown[b] = new float[dimension][BLOCK];
            }
            blocks = grown;
            ids = java.util.Arrays.copyOf(ids, grown.length * BLOCK);
        }
    }

    /** The result of a scan: ids and cosine similarities, best first. */
    record Hits(String[] ids, float[] scores) {
        static final Hits EMPTY = new Hits(new String[0], new float[0]);

        int size() {
            return ids.length;
        }
    }
}
