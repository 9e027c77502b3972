package dev.memfas.core;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The dot-product index of one namespace's L2-normalized vectors.
 *
 * <p>A search has two steps. First a scan of compact integer codes of every vector finds the approximate best
 * {@code 2k + 64}; then those that could be among the true best {@code k} are scored again exactly from the floats,
 * and the best {@code k} returned. The floats are kept row by row outside the heap (direct buffers): only the
 * re-scored and gathered rows are read, a few hundred per turn, so the heap holds just the codes the scan reads.
 *
 * <p>Until it first holds more than {@value #EXACT_SLOTS} slots, an index has no codes: it keeps the floats a second
 * time as columns on the heap and scores every vector exactly.
 *
 * <p>The codes come in two kinds, chosen once per JVM by {@link VectorKernels}:
 * <ul>
 *   <li>With the Vector API: int8 codes, each vector scaled by its largest component, in blocks of
 *       {@value #INT8_BLOCK} slots made of tiles of {@link VectorKernels#TILE} slots, each tile every dimension's codes
 *       of its slots in turn, so the kernel reads one contiguous run per tile. A quarter of the float bytes.
 *   <li>Without it (Java 17, or no flag): 16-bit codes {@code round(v[d] * S)} with one scale {@code S} for every
 *       vector, kept in blocks of {@value #BLOCK} slots as one {@code short[BLOCK]} column per dimension. The scan runs
 *       {@code acc[j] = (short) (acc[j] + q[d] * column[j])} over contiguous, separate arrays of one element size, a
 *       loop the JIT auto-vectorizes on JDK 17 without flags (a single flat array would not be: the JIT cannot prove the
 *       accumulator and the data don't overlap; mixed sizes, bytes into ints, are not vectorized before JDK 20). Half
 *       the float bytes. The sums wrap around in 16 bits, which is exact as long as the final sum fits: {@code S} is
 *       chosen so that even the sum of two unit vectors' codes stays within a {@code short}
 *       ({@link #shortScale(int)}).
 * </ul>
 *
 * <p>Removal moves the last slot into the hole, so slots stay dense. Thread-safe: scans share a read lock, writes take
 * the write lock.
 */
final class VectorIndex {
    /**
     * Slots per block. The 16-bit scan reads one column of codes per dimension in turn, and the hardware prefetcher
     * keeps up only with long columns: on two threads, 100K vectors scanned in 9.1 ms with columns of 1 KB, 4.9 ms with
     * 4 KB and 3.7 ms with 16 KB (8,192 slots).
     */
    static final int BLOCK = 8192;
    /**
     * Slots per block with int8 codes. The Vector API kernel reads tiles, not columns, so long blocks do not help it;
     * and a block's codes are one array, which at 512 slots of 384 dimensions (196 KB) stays well below the size the
     * G1 collector gives a region of its own (a "humongous" object, whose unused rest of the region is lost).
     */
    static final int INT8_BLOCK = 512;
    /**
     * How many more than the requested hits the code scan keeps at most for exact re-scoring: quantization moves a score
     * by well under 1% of its value, so the true best {@code k} are found among the approximate best {@code 2k + 64}.
     * Of these, only those whose approximate score is close enough to the {@code k}-th to be among the true best are
     * scored again ({@link #errorMargin}).
     */
    static final int RESCORE_EXTRA = 64;
    /** How many standard deviations of quantization error a vector's approximate score is allowed to be off by. */
    static final int ERROR_SIGMAS = 5;
    /**
     * The fewest slots worth handing to another thread: 4,096 vectors of 384 dimensions are 3 MB of 16-bit codes, a
     * scan of a few hundred microseconds, well above the cost of waking a helper.
     */
    static final int MIN_SLOTS_PER_PART = 4096;
    /** Into how many parts per thread a scan is split when the caller has other work to do first. */
    static final int PARTS_PER_THREAD = 4;
    /**
     * The smallest 16-bit code scale worth scanning with: below it (dimensions above about 88,000) a code step would
     * be over 3% of a unit, and every vector is scored exactly instead.
     */
    static final int MIN_SHORT_SCALE = 32;
    /** Floats in a 64-byte cache line. */
    private static final int FLOATS_PER_LINE = 16;
    /** The fewest slots a block is allocated with; it doubles from there up to the block size. */
    static final int MIN_BLOCK_CAPACITY = 64;
    /**
     * Up to this many slots the index keeps float columns and scores every vector exactly, with no codes. A code scan
     * then re-scores a hundred or more rows, which over so few vectors costs as much as scoring them all: at 1,000
     * vectors on JDK 17 the exact scan takes a third of the time of the 16-bit scan and its re-scoring.
     */
    static final int EXACT_SLOTS = 2048;

    private final int dimension;
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, Integer> slotById = new HashMap<>();
    private final VectorKernels.Int8Kernel int8;
    /** Without {@link #int8}: what a unit vector's components are multiplied by to give its 16-bit codes. */
    private final int shortScale;
    /** {@link #BLOCK} or {@link #INT8_BLOCK}. */
    private final int blockSize;
    /** The floats row by row, {@code blockSize * dimension} per block, outside the heap. */
    private FloatBuffer[] rowBlocks = new FloatBuffer[0];
    /**
     * While the index has never held more than {@link #exactSlots} slots: the floats again, one column per dimension,
     * which the exact scan reads, and no codes. Null from the first time it grows past that.
     */
    private float[][] exactColumns;
    private final int exactSlots;
    /** With {@link #int8}: the codes, one tiled {@code byte[INT8_BLOCK * dimension]} per block, and each slot's scale. */
    private byte[][] codeBlocks = new byte[0][];
    private float[][] scaleBlocks = new float[0][];
    /** Without {@link #int8}: the 16-bit codes, one {@code short[BLOCK]} column per dimension per block. */
    private short[][][] shortBlocks = new short[0][][];
    private int allocatedBlocks;
    private String[] ids = new String[0];
    private int size;

    VectorIndex(int dimension) {
        this(dimension, VectorKernels.INT8, EXACT_SLOTS);
    }

    /**
     * An index scanning with the given int8 kernel, or with the 16-bit loop when it is null, and scoring exactly from
     * float columns while it has held at most {@code exactSlots} slots.
     */
    VectorIndex(int dimension, VectorKernels.Int8Kernel int8, int exactSlots) {
        if (dimension <= 0) {
            throw new IllegalArgumentException("vector dimension must be positive: " + dimension);
        }
        this.dimension = dimension;
        this.int8 = int8;
        this.shortScale = shortScale(dimension);
        this.blockSize = int8 == null ? BLOCK : INT8_BLOCK;
        this.exactSlots = exactSlots;
        this.exactColumns = exactSlots > 0 ? new float[dimension][0] : null;
    }

    /**
     * The scale {@code S} of the 16-bit codes of unit vectors of this dimension: the largest for which the sum of the
     * products of two unit vectors' codes always fits in a {@code short}. A unit vector's codes have a length of at
     * most {@code S + √dimension / 2} (each rounding moves a code by at most one half), so two of them have a dot
     * product of at most {@code (S + √dimension / 2)²}, which must not exceed 32,767. For 384 dimensions {@code S} is
     * 171: a code step of 0.6% of a unit.
     */
    static int shortScale(int dimension) {
        return (int) Math.floor(Math.sqrt(Short.MAX_VALUE) - Math.sqrt(dimension) / 2);
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
        return search(query, k, threads, null);
    }

    /**
     * {@link #search(float[], int, int)}, running {@code alongside} (if not null) on the calling thread while helper
     * threads begin the scan; the caller joins the scan when it is done. {@code alongside} runs under this index's
     * read lock, so it must not write to this index.
     */
    Hits search(float[] query, int k, int threads, Runnable alongside) {
        lock.readLock().lock();
        try {
            int n = size;
            if (n == 0) {
                if (alongside != null) {
                    alongside.run();
                }
                return Hits.EMPTY;
            }
            int keep = Math.min(k, n);
            int approximate = 2 * keep + RESCORE_EXTRA;
            TopScores top;
            if (exactColumns != null) {
                if (alongside != null) {
                    alongside.run();
                }
                top = scanExact(query, keep, n);
            } else if (approximate >= n || (int8 == null && shortScale < MIN_SHORT_SCALE)) {
                // The code scan would keep every slot for re-scoring anyway (or, at a huge dimension, be too coarse to
                // trust): score them all exactly at once.
                if (alongside != null) {
                    alongside.run();
                }
                int[] all = new int[n];
                java.util.Arrays.setAll(all, i -> i);
                top = rescore(all, query, keep);
            } else {
                // With work alongside, finer parts let the helpers take more of the scan while the caller is busy.
                int parts = alongside == null || threads == 1 ? parts(n, threads)
                        : parts(n, PARTS_PER_THREAD * threads);
                int tiles = (n + VectorKernels.TILE - 1) / VectorKernels.TILE;
                TopScores[] tops = new TopScores[parts];
                short[] shortQuery = int8 == null ? shortCodes(query) : null;
                Floor floor = new Floor();
                ScanThreads.run(parts, threads, part -> {
                    // Parts begin on a tile, as the int8 kernel scores whole tiles.
                    int from = ScanThreads.start(tiles, part, parts) * VectorKernels.TILE;
                    int to = Math.min(n, ScanThreads.start(tiles, part + 1, parts) * VectorKernels.TILE);
                    tops[part] = int8 == null ? scanShorts(shortQuery, approximate, from, to, floor)
                            : scanBytes(query, approximate, from, to, floor);
                }, alongside);
                TopScores candidates = merge(tops);
                // The scan kept 2k + 64 < n slots, so more than k.
                float kth = candidates.scoreAt(keep);
                int[] approximateSlots = new int[candidates.size()];
                float[] approximateScores = new float[approximateSlots.length];
                candidates.drain(approximateSlots, approximateScores);
                double margin = errorMargin(approximateSlots, query);
                // First the approximate best k, exactly: their k-th exact score is a floor for the true k-th. Then
                // only those whose approximate score is within one error of that floor, or of twice the error below
                // the approximate k-th, whichever is higher, can still be among the true best.
                top = new TopScores(keep);
                rescore(within(approximateSlots, approximateScores, kth, Float.POSITIVE_INFINITY), query, top);
                double lowest = kth - margin;
                double scanUnits = scanUnitsPerExactUnit(query);
                if (top.size() == keep && scanUnits > 0) {
                    lowest = Math.max(lowest, top.scoreAt(keep) * scanUnits - margin / 2);
                }
                rescore(within(approximateSlots, approximateScores, lowest, kth), query, top);
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

    /**
     * Twice how far an approximate score may be from the exact one: a true top-k vector scores at least the true
     * {@code k}-th, and its approximate score is at most one error below its true score, while the true {@code k}-th
     * is at most one error below the approximate {@code k}-th. The error is taken as {@value #ERROR_SIGMAS} standard
     * deviations of a code's rounding (uniform within half a step) summed over the dimensions. With int8 codes twice
     * the error is about 0.002 of a cosine, with 16-bit codes about 0.024.
     */
    private double errorMargin(int[] slots, float[] query) {
        if (int8 == null) {
            // Both the vector's and the query's codes are rounded: two errors of step / √12 each (unit vectors), in
            // the scan's units of 1 / S².
            return 2 * ERROR_SIGMAS * Math.sqrt(2.0 / 12) * shortScale;
        }
        // Only the vector is rounded, each by its own step (scale); the query enters by its length.
        float largestStep = 0;
        for (int slot : slots) {
            largestStep = Math.max(largestStep, scaleBlocks[slot / blockSize][slot % blockSize]);
        }
        double queryLength = Math.sqrt(Vectors.scalarDot(query, 0, query, 0, dimension));
        return 2 * ERROR_SIGMAS * largestStep / Math.sqrt(12) * queryLength;
    }

    /**
     * What an exact score is multiplied by to compare with approximate ones: 1 for int8 codes (the kernel multiplies
     * the float query); for 16-bit codes, which score a unit-length copy of the query in units of {@code 1 / S²},
     * {@code S²} over the query's length. 0 for a zero query.
     */
    private double scanUnitsPerExactUnit(float[] query) {
        if (int8 != null) {
            return 1.0;
        }
        double length = Math.sqrt(Vectors.scalarDot(query, 0, query, 0, dimension));
        return length == 0 ? 0 : (double) shortScale * shortScale / length;
    }

    /** The slots whose approximate score is at least {@code from} and below {@code to}, in slot order. */
    private static int[] within(int[] slots, float[] approximate, double from, double to) {
        int[] out = new int[slots.length];
        int count = 0;
        for (int i = 0; i < slots.length; i++) {
            if (approximate[i] >= from && approximate[i] < to) {
                out[count++] = slots[i];
            }
        }
        int[] within = java.util.Arrays.copyOf(out, count);
        // Slot order reads the rows forwards.
        java.util.Arrays.sort(within);
        return within;
    }

    /** Into how many parts a scan of {@code n} slots is split: at least one, and never a part too small. */
    static int parts(int n, int threads) {
        return Math.max(1, Math.min(threads, n / MIN_SLOTS_PER_PART));
    }

    /** The query's 16-bit codes, from a unit-length copy of it so that the sums stay within a {@code short}. */
    private short[] shortCodes(float[] query) {
        float unit = Vectors.inverseNorm(query, dimension);
        short[] codes = new short[dimension];
        for (int d = 0; d < dimension; d++) {
            codes[d] = (short) Math.round(query[d] * unit * shortScale);
        }
        return codes;
    }

    /** Scores slots {@code [0, n)} exactly from {@link #exactColumns}, keeping the best {@code k}. */
    private TopScores scanExact(float[] query, int k, int n) {
        float[] acc = new float[n];
        int d = 0;
        // Four dimensions per pass, as in scoreShorts.
        for (; d + 4 <= dimension; d += 4) {
            float q0 = query[d];
            float q1 = query[d + 1];
            float q2 = query[d + 2];
            float q3 = query[d + 3];
            float[] c0 = exactColumns[d];
            float[] c1 = exactColumns[d + 1];
            float[] c2 = exactColumns[d + 2];
            float[] c3 = exactColumns[d + 3];
            for (int j = 0; j < n; j++) {
                acc[j] += q0 * c0[j] + q1 * c1[j] + q2 * c2[j] + q3 * c3[j];
            }
        }
        for (; d < dimension; d++) {
            float q = query[d];
            float[] column = exactColumns[d];
            for (int j = 0; j < n; j++) {
                acc[j] += q * column[j];
            }
        }
        TopScores top = new TopScores(k);
        for (int j = 0; j < n; j++) {
            top.offer(j, acc[j]);
        }
        return top;
    }

    /**
     * Scans slots {@code [from, to)} by their 16-bit codes, keeping the best {@code k} approximate scores that are not
     * below the floor, and raising the floor as its own best rise.
     */
    private TopScores scanShorts(short[] query, int k, int from, int to, Floor floor) {
        TopScores top = new TopScores(k);
        short[] acc = new short[blockSize];
        for (int b = from / blockSize; b * blockSize < to; b++) {
            int base = b * blockSize;
            int lo = Math.max(from, base) - base;
            int hi = Math.min(to, base + blockSize) - base;
            scoreShorts(shortBlocks[b], query, acc, lo, hi);
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
        return top;
    }

    /**
     * Sets {@code acc[j]}, for {@code j} in {@code [lo, hi)}, to the sum of the products of slot {@code j}'s codes and
     * the query's (in units of {@code 1 / S²}).
     */
    private static void scoreShorts(short[][] columns, short[] query, short[] acc, int lo, int hi) {
        java.util.Arrays.fill(acc, lo, hi, (short) 0);
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
     * Scans slots {@code [from, to)} by their int8 codes, keeping the best {@code k} approximate scores that are not
     * below the floor, and raising the floor as its own best rise.
     */
    private TopScores scanBytes(float[] query, int k, int from, int to, Floor floor) {
        TopScores top = new TopScores(k);
        float[] acc = new float[blockSize];
        for (int b = from / blockSize; b * blockSize < to; b++) {
            int base = b * blockSize;
            int lo = Math.max(from, base) - base;
            int hi = Math.min(to, base + blockSize) - base;
            int8.score(codeBlocks[b], query, acc, lo, hi);
            float[] scales = scaleBlocks[b];
            float below = floor.below();
            float threshold = Math.max(top.threshold(), below);
            for (int j = lo; j < hi; j++) {
                float score = acc[j] * scales[j];
                if (score > threshold) {
                    top.offer(base + j, score);
                    threshold = Math.max(top.threshold(), below);
                }
            }
            floor.raise(top.threshold());
        }
        return top;
    }

    /**
     * The highest {@code k}-th best score any part of one scan has kept so far. The best {@code k} of all parts score
     * at least that, so every part can skip what scores below it: parts that start after another has finished keep a
     * few hundred offers instead of thousands (over 100K slots in eight parts, the offers and selections were a fifth
     * of the scan).
     */
    private static final class Floor {
        private final AtomicInteger bits = new AtomicInteger(Float.floatToRawIntBits(Float.NEGATIVE_INFINITY));

        /**
         * A score just below the floor: offers above it are kept. Just below, so that a score equal to another part's
         * {@code k}-th still enters, as it would without the floor.
         */
        float below() {
            return Math.nextDown(Float.intBitsToFloat(bits.get()));
        }

        void raise(float score) {
            int current = bits.get();
            while (score > Float.intBitsToFloat(current)
                    && !bits.compareAndSet(current, Float.floatToRawIntBits(score))) {
                current = bits.get();
            }
        }
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
        rescore(slots, query, exact);
        return exact;
    }

    /** Offers the given slots' exact float scores to {@code exact}. */
    private void rescore(int[] slots, float[] query, TopScores exact) {
        touchRows(slots);
        float[] row = new float[dimension];
        for (int slot : slots) {
            rowBlocks[slot / blockSize].get((slot % blockSize) * dimension, row, 0, dimension);
            exact.offer(slot, Vectors.dot(row, 0, query, 0, dimension));
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
            java.util.Arrays.fill(codes, (byte) 0);
            return 0f;
        }
        float step = max / 127f;
        for (int d = 0; d < codes.length; d++) {
            codes[d] = (byte) Math.round(v[d] * scale / step);
        }
        return step;
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
        return gather(memoryIds, slotHints, out, 0);
    }

    /** {@link #gather(List, int[], float[])}, writing the rows to {@code out} from row {@code firstRow} on. */
    boolean[] gather(List<String> memoryIds, int[] slotHints, float[] out, int firstRow) {
        boolean[] present = new boolean[memoryIds.size()];
        int[] slots = new int[present.length];
        lock.readLock().lock();
        try {
            for (int i = 0; i < slots.length; i++) {
                String id = memoryIds.get(i);
                int hint = slotHints == null ? -1 : slotHints[i];
                slots[i] = hint >= 0 && hint < size && id.equals(ids[hint]) ? hint : slotById.getOrDefault(id, -1);
            }
            touchRows(slots);
            for (int i = 0; i < slots.length; i++) {
                int slot = slots[i];
                int row = (firstRow + i) * dimension;
                if (slot < 0) {
                    java.util.Arrays.fill(out, row, row + dimension, 0f);
                    continue;
                }
                present[i] = true;
                rowBlocks[slot / blockSize].get((slot % blockSize) * dimension, out, row, dimension);
            }
        } finally {
            lock.readLock().unlock();
        }
        return present;
    }

    /** Defeats dead-code elimination of {@link #touchRows}. */
    @SuppressWarnings("unused")
    private static volatile float touched;

    /**
     * Reads one float of every cache line of the given rows (negative slots skipped) before they are copied. The rows
     * of a turn are scattered over the direct buffers and rarely cached; copied one after the other, each row waits for
     * its misses in turn, about a microsecond per row. These loads do not depend on each other, so the processor keeps
     * many of them in flight at once, and the copies that follow find the rows in the cache.
     */
    private void touchRows(int[] slots) {
        float sum = 0;
        for (int slot : slots) {
            if (slot < 0) {
                continue;
            }
            FloatBuffer rows = rowBlocks[slot / blockSize];
            int at = (slot % blockSize) * dimension;
            for (int d = 0; d < dimension; d += FLOATS_PER_LINE) {
                sum += rows.get(at + d);
            }
        }
        touched = sum;
    }

    private void write(int slot, float[] v, float scale) {
        int b = slot / blockSize;
        int j = slot % blockSize;
        float[] scaled = new float[dimension];
        for (int d = 0; d < dimension; d++) {
            scaled[d] = v[d] * scale;
        }
        rowBlocks[b].put(j * dimension, scaled);
        if (exactColumns != null) {
            for (int d = 0; d < dimension; d++) {
                exactColumns[d][slot] = scaled[d];
            }
        } else {
            encode(slot, scaled);
        }
    }

    /** Writes the codes of slot {@code slot} from its unit vector. */
    private void encode(int slot, float[] unit) {
        int b = slot / blockSize;
        int j = slot % blockSize;
        if (int8 == null) {
            short[][] columns = shortBlocks[b];
            for (int d = 0; d < dimension; d++) {
                columns[d][j] = (short) Math.round(unit[d] * shortScale);
            }
            return;
        }
        byte[] codes = new byte[dimension];
        scaleBlocks[b][j] = quantize(unit, 1f, codes);
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
        int fb = from / blockSize;
        int tb = to / blockSize;
        int fj = from % blockSize;
        int tj = to % blockSize;
        rowBlocks[tb].put(tj * dimension, rowBlocks[fb], fj * dimension, dimension);
        if (exactColumns != null) {
            for (float[] column : exactColumns) {
                column[to] = column[from];
            }
            return;
        }
        if (int8 == null) {
            for (int d = 0; d < dimension; d++) {
                shortBlocks[tb][d][tj] = shortBlocks[fb][d][fj];
            }
            return;
        }
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
        int b = slot / blockSize;
        int j = slot % blockSize;
        rowBlocks[b].put(j * dimension, new float[dimension]);
        if (exactColumns != null) {
            for (float[] column : exactColumns) {
                column[slot] = 0f;
            }
            return;
        }
        if (int8 == null) {
            for (int d = 0; d < dimension; d++) {
                shortBlocks[b][d][j] = 0;
            }
            return;
        }
        for (int d = 0, at = codeOffset(j); d < dimension; d++, at += VectorKernels.TILE) {
            codeBlocks[b][at] = 0;
        }
        scaleBlocks[b][j] = 0f;
    }

    /**
     * Makes room for slots {@code [0, needed)}. Every block but the last is full size; the last grows by doubling from
     * {@value #MIN_BLOCK_CAPACITY} slots, so a small namespace holds kilobytes, not a whole block.
     */
    private void ensureCapacity(int needed) {
        if (needed > ids.length) {
            ids = java.util.Arrays.copyOf(ids, Math.max(needed, Math.max(2 * ids.length, MIN_BLOCK_CAPACITY)));
        }
        int blockCount = (needed + blockSize - 1) / blockSize;
        if (blockCount > rowBlocks.length) {
            int references = Math.max(blockCount, 2 * rowBlocks.length);
            rowBlocks = java.util.Arrays.copyOf(rowBlocks, references);
            if (int8 == null) {
                shortBlocks = java.util.Arrays.copyOf(shortBlocks, references);
            } else {
                codeBlocks = java.util.Arrays.copyOf(codeBlocks, references);
                scaleBlocks = java.util.Arrays.copyOf(scaleBlocks, references);
            }
        }
        for (int b = Math.max(0, allocatedBlocks - 1); b < blockCount; b++) {
            int slots = Math.min(blockSize, needed - b * blockSize);
            int capacity = capacity(b);
            if (slots > capacity) {
                int grown = Math.max(slots, Math.max(2 * capacity, MIN_BLOCK_CAPACITY));
                // A whole number of int8 tiles, and never more than a block.
                int tiles = (grown + VectorKernels.TILE - 1) / VectorKernels.TILE;
                resize(b, Math.min(blockSize, tiles * VectorKernels.TILE));
            }
        }
        allocatedBlocks = Math.max(allocatedBlocks, blockCount);
        if (exactColumns != null) {
            if (needed > exactSlots) {
                switchToCodes();
            } else if (needed > exactColumns[0].length) {
                int grown = Math.min(exactSlots, Math.max(needed, Math.max(2 * exactColumns[0].length,
                        MIN_BLOCK_CAPACITY)));
                for (int d = 0; d < dimension; d++) {
                    exactColumns[d] = java.util.Arrays.copyOf(exactColumns[d], grown);
                }
            }
        }
    }

    /**
     * Leaves the exact columns for codes, the first time the index grows past {@link #exactSlots} slots: gives every
     * block its codes and encodes every slot from its row.
     */
    private void switchToCodes() {
        exactColumns = null;
        for (int b = 0; b < allocatedBlocks; b++) {
            allocateCodes(b, capacity(b));
        }
        float[] unit = new float[dimension];
        for (int slot = 0; slot < size; slot++) {
            rowBlocks[slot / blockSize].get((slot % blockSize) * dimension, unit, 0, dimension);
            encode(slot, unit);
        }
    }

    /** How many slots block {@code b} has room for. */
    private int capacity(int b) {
        return rowBlocks[b] == null ? 0 : rowBlocks[b].capacity() / dimension;
    }

    /** Gives block {@code b} room for {@code capacity} slots, keeping what it holds. */
    private void resize(int b, int capacity) {
        FloatBuffer rows = ByteBuffer.allocateDirect(capacity * dimension * Float.BYTES).order(ByteOrder.nativeOrder())
                .asFloatBuffer();
        if (rowBlocks[b] != null) {
            rows.put(0, rowBlocks[b], 0, rowBlocks[b].capacity());
        }
        rowBlocks[b] = rows;
        if (exactColumns == null) {
            allocateCodes(b, capacity);
        }
    }

    /** Gives block {@code b} codes for {@code capacity} slots, keeping those it holds. */
    private void allocateCodes(int b, int capacity) {
        if (int8 == null) {
            short[][] columns = new short[dimension][];
            for (int d = 0; d < dimension; d++) {
                columns[d] = shortBlocks[b] == null ? new short[capacity]
                        : java.util.Arrays.copyOf(shortBlocks[b][d], capacity);
            }
            shortBlocks[b] = columns;
        } else {
            // The tiled layout of a smaller capacity is a prefix of a larger one's.
            codeBlocks[b] = codeBlocks[b] == null ? new byte[capacity * dimension]
                    : java.util.Arrays.copyOf(codeBlocks[b], capacity * dimension);
            scaleBlocks[b] = scaleBlocks[b] == null ? new float[capacity]
                    : java.util.Arrays.copyOf(scaleBlocks[b], capacity);
        }
    }

    /** The result of a scan: ids and cosine similarities, best first, and the slots the ids had then. */
    record Hits(String[] ids, float[] scores, int[] slots) {
        static final Hits EMPTY = new Hits(new String[0], new float[0], new int[0]);

        int size() {
            return ids.length;
        }
    }
}
