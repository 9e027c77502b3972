package dev.memfas.core.vector;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The dot-product index of one namespace's L2-normalized vectors: the slots, their ids and the lock. What a scan reads
 * lives in a layout of its own: {@link ExactColumns} while the index is small, then the {@link CodeLayout} chosen once
 * per JVM ({@link ShortCodes}, or {@link Int8Tiles} with the Vector API); the floats themselves in {@link FloatRows}.
 *
 * <p>A search has two steps. First a scan of the codes of every vector finds the approximate best {@code 2k + 64},
 * split into parts on the caller and the {@link ScanThreads} helpers, which share a {@link ScanFloor}; then those that
 * could be among the true best {@code k} are scored again exactly from the rows ({@link #rescore}), and the best
 * {@code k} returned. The hits and their cosines are those of an exact float scan. A search's scratch space comes
 * from a pooled {@link SearchScratch}.
 *
 * <p>Removal moves the last slot into the hole, so slots stay dense. Thread-safe: searches share a read lock, writes
 * take the write lock.
 */
public final class VectorIndex {
    /** Slots per block of the 16-bit codes (and of their rows), for tools that lay out data as the index does. */
    public static final int BLOCK = ShortCodes.BLOCK;
    /**
     * How many more than the requested hits the code scan keeps at most for exact re-scoring: quantization moves a score
     * by well under 1% of its value, so the true best {@code k} are found among the approximate best {@code 2k + 64}.
     * Of these, only those whose approximate score is close enough to the {@code k}-th to be among the true best are
     * scored again ({@link CodeLayout#errorMargin}).
     */
    static final int RESCORE_EXTRA = 64;
    /**
     * The fewest slots worth handing to another thread: 4,096 vectors of 384 dimensions are 3 MB of 16-bit codes, a
     * scan of a few hundred microseconds, well above the cost of waking a helper.
     */
    static final int MIN_SLOTS_PER_PART = 4096;
    /** Into how many parts per thread a scan is split when the caller has other work to do first. */
    static final int PARTS_PER_THREAD = 4;
    /**
     * Up to this many slots the index keeps {@link ExactColumns} and scores every vector exactly, with no codes. A code
     * scan then re-scores a hundred or more rows, which over so few vectors costs as much as scoring them all.
     */
    static final int EXACT_SLOTS = 2048;

    private final int dimension;
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, Integer> slotById = new HashMap<>();
    private final VectorKernels.Int8Kernel int8;
    private final FloatRows rows;
    /** While the index has never held more than {@link #EXACT_SLOTS} slots; null from then on. */
    private ExactColumns exact;
    /** From the first time the index holds more than {@link #EXACT_SLOTS} slots; null until then. */
    private CodeLayout codes;
    private String[] ids = new String[0];
    private int size;

    /** An index of vectors of this dimension, scanning with the kernel chosen for this JVM. */
    public VectorIndex(int dimension) {
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
        this.rows = new FloatRows(dimension, int8 == null ? ShortCodes.BLOCK : Int8Tiles.BLOCK);
        if (exactSlots > 0) {
            exact = new ExactColumns(dimension, exactSlots);
        } else {
            codes = newCodes();
        }
    }

    private CodeLayout newCodes() {
        return int8 == null ? new ShortCodes(dimension) : new Int8Tiles(dimension, int8);
    }

    /** How indexes scan in this JVM: {@code "int8 scan (Vector API)"} or {@code "16-bit scan"}. */
    public static String scanKind() {
        return VectorKernels.INT8 != null ? "int8 scan (Vector API)" : "16-bit scan";
    }

    /** The dimension of the vectors. */
    public int dimension() {
        return dimension;
    }

    /** How many vectors the index holds. */
    public int size() {
        lock.readLock().lock();
        try {
            return size;
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * About how many bytes the index takes, heap and direct buffers, for the slots it has room for: each a row of
     * floats, a code or an exact column, and an id with its map entry (about 100 bytes). Within a few percent of
     * {@code IndexFootprint}'s measure at a million vectors (2.43 KB each of 384 dimensions, 16-bit codes).
     */
    public long bytes() {
        lock.readLock().lock();
        try {
            long perSlot = (long) dimension * Float.BYTES + (exact != null ? (long) dimension * Float.BYTES
                    : int8 != null ? dimension + Float.BYTES : (long) dimension * Short.BYTES);
            return 1_024 + (long) ids.length * (perSlot + 100);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Adds or replaces one vector, normalizing a copy of it. */
    public void put(String id, float[] vector) {
        putAll(List.of(id), List.of(vector));
    }

    /** Adds or replaces vectors, normalizing copies of them. */
    public void putAll(List<String> memoryIds, List<float[]> vectors) {
        // Checked before the lock so a bad vector leaves the index untouched.
        float[] scales = new float[vectors.size()];
        for (int i = 0; i < scales.length; i++) {
            scales[i] = Vectors.inverseNorm(vectors.get(i), dimension);
        }
        float[] unit = new float[dimension];
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
                float[] v = vectors.get(i);
                for (int d = 0; d < dimension; d++) {
                    unit[d] = v[d] * scales[i];
                }
                rows.write(slot, unit);
                if (exact != null) {
                    exact.write(slot, unit);
                } else {
                    codes.encode(slot, unit);
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Removes vectors; unknown ids are ignored. */
    public void removeAll(Iterable<String> memoryIds) {
        lock.writeLock().lock();
        try {
            for (String id : memoryIds) {
                Integer slot = slotById.remove(id);
                if (slot == null) {
                    continue;
                }
                int last = --size;
                if (slot != last) {
                    rows.move(last, slot);
                    if (exact != null) {
                        exact.move(last, slot);
                    } else {
                        codes.move(last, slot);
                    }
                    ids[slot] = ids[last];
                    slotById.put(ids[slot], slot);
                }
                ids[last] = null;
                rows.clear(last);
                if (exact != null) {
                    exact.clear(last);
                } else {
                    codes.clear(last);
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Makes room for slots {@code [0, needed)}, leaving the exact columns for codes the first time they are outgrown. */
    private void ensureCapacity(int needed) {
        if (needed > ids.length) {
            ids = Arrays.copyOf(ids, Math.max(needed, Math.max(2 * ids.length, Blocks.MIN_CAPACITY)));
        }
        rows.ensureCapacity(needed);
        if (exact != null && exact.outgrownBy(needed)) {
            // Every slot is encoded from its row; removals never bring the columns back.
            exact = null;
            codes = newCodes();
            codes.ensureCapacity(needed);
            float[] unit = new float[dimension];
            for (int slot = 0; slot < size - 1; slot++) {
                rows.read(slot, unit, 0);
                codes.encode(slot, unit);
            }
        } else if (exact != null) {
            exact.ensureCapacity(needed);
        } else {
            codes.ensureCapacity(needed);
        }
    }

    /**
     * Scores every vector against the (normalized) query and keeps the best {@code k}. Large indexes are split into
     * parts scanned on up to {@code threads} threads.
     *
     * @return the hits, best first
     */
    public Hits search(float[] query, int k, int threads) {
        try (VectorSearch search = begin(query, k, threads, false)) {
            return search.finish();
        }
    }

    /**
     * {@link #search(float[], int, int)}, running {@code alongside} on the calling thread while helper threads begin
     * the scan.
     */
    Hits search(float[] query, int k, int threads, Runnable alongside) {
        try (VectorSearch search = start(query, k, threads)) {
            alongside.run();
            return search.finish();
        }
    }

    /**
     * Starts a search whose caller has other work to do first: helper threads begin the scan, the caller does its work
     * and then {@link VectorSearch#finish() finishes} the search, taking the parts no helper has taken. Holds this index's
     * read lock until the search is finished or closed, so the caller must not write to this index in between; it may
     * {@link #gather} from it.
     */
    public VectorSearch start(float[] query, int k, int threads) {
        return begin(query, k, threads, true);
    }

    private VectorSearch begin(float[] query, int k, int threads, boolean callerBusy) {
        if (k <= 0) {
            throw new IllegalArgumentException("k must be positive: " + k);
        }
        lock.readLock().lock();
        try {
            return new VectorSearch(this, query, k, threads, callerBusy);
        } catch (RuntimeException | Error e) {
            lock.readLock().unlock();
            throw e;
        }
    }

    // What a search reads, under the read lock it holds.

    ReadWriteLock lock() {
        return lock;
    }

    int sizeUnderLock() {
        return size;
    }

    ExactColumns exact() {
        return exact;
    }

    CodeLayout codes() {
        return codes;
    }

    FloatRows rows() {
        return rows;
    }

    String idAt(int slot) {
        return ids[slot];
    }

    /** Into how many parts a scan of {@code n} slots is split: at least one, and never a part too small. */
    public static int parts(int n, int threads) {
        return Math.max(1, Math.min(threads, n / MIN_SLOTS_PER_PART));
    }

    /**
     * Copies the normalized vectors of the given ids into {@code out}, row {@code i} at {@code i * dimension}.
     *
     * @return for each id whether it had a vector (rows of missing ids are zero)
     */
    public boolean[] gather(List<String> memoryIds, float[] out) {
        String[] idArray = memoryIds.toArray(new String[0]);
        int[] slots = new int[idArray.length];
        Arrays.fill(slots, -1);
        boolean[] present = new boolean[idArray.length];
        gather(idArray, slots, present, 0, idArray.length, out);
        return present;
    }

    /**
     * Copies the normalized vectors of {@code memoryIds[from, to)} into {@code out}, the vector of entry {@code i} as
     * row {@code i} (at {@code i * dimension}), and sets {@code present[i]} to whether it had one (the rows of missing
     * ids are zeroed). On entry {@code slots[i]} is the slot the id had when a search returned it, or -1: a slot still
     * holding its id is used as is, which spares a hash lookup that at 100K ids is a few cache misses; on return it is
     * the id's slot, or -1.
     */
    public void gather(String[] memoryIds, int[] slots, boolean[] present, int from, int to, float[] out) {
        lock.readLock().lock();
        try {
            for (int i = from; i < to; i++) {
                String id = memoryIds[i];
                int hint = slots[i];
                slots[i] = hint >= 0 && hint < size && id.equals(ids[hint]) ? hint : slotById.getOrDefault(id, -1);
            }
            rows.touch(slots, from, to);
            for (int i = from; i < to; i++) {
                int slot = slots[i];
                if (slot < 0) {
                    Arrays.fill(out, i * dimension, (i + 1) * dimension, 0f);
                    present[i] = false;
                } else {
                    rows.read(slot, out, i * dimension);
                    present[i] = true;
                }
            }
        } finally {
            lock.readLock().unlock();
        }
    }
}
