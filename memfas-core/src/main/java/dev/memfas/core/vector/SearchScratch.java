package dev.memfas.core.vector;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The scratch space of one search, kept for the next: each part's accumulators and best scores, the query's codes,
 * and the buffers of re-scoring. Sized by the parts and by {@code k}, never by the index; a search takes one from
 * {@link #take()} and gives it back with {@link #release}, so a turn allocates almost nothing for its scan (a 100K
 * scan in eight parts used to allocate 200 KB of accumulators and buffers, which made every turn pay the kernel for
 * fresh heap pages). The parts of one search share it, each writing only its own part's arrays.
 */
final class SearchScratch {
    /** How many scratches are kept for reuse: enough for the searches that run at once on a busy machine. */
    private static final int POOLED = Math.max(4, 2 * ScanThreads.PROCESSORS);
    private static final AtomicReferenceArray<SearchScratch> POOL = new AtomicReferenceArray<>(POOLED);

    private TopScores[] partTops = new TopScores[0];
    private short[][] shortAccumulators = new short[0][];
    private float[][] floatAccumulators = new float[0][];
    private short[] shortQuery = new short[0];
    private float[] exactAccumulator = new float[0];
    private int[] slots = new int[0];
    private float[] scores = new float[0];
    private int[] within = new int[0];
    private float[] row = new float[0];
    private final TopScores exact = new TopScores(1);
    final ScanFloor floor = new ScanFloor();

    /** A scratch from the pool, or a new one if every pooled one is in use. */
    static SearchScratch take() {
        for (int i = 0; i < POOLED; i++) {
            SearchScratch s = POOL.get(i);
            if (s != null && POOL.compareAndSet(i, s, null)) {
                return s;
            }
        }
        return new SearchScratch();
    }

    /** Gives a scratch back for another search; dropped if the pool is full. */
    static void release(SearchScratch scratch) {
        for (int i = 0; i < POOLED; i++) {
            if (POOL.get(i) == null && POOL.compareAndSet(i, null, scratch)) {
                return;
            }
        }
    }

    /**
     * Part {@code part}'s best scores, emptied, keeping {@code k}: called by the thread that scans the part, after
     * {@link #reserveParts}. Made by that thread the first time, so that two parts' buffers, written on every offer,
     * are not neighbours in memory: made one after the other by one thread, they would share cache lines, which the
     * two scanning threads would then take from each other.
     */
    TopScores partTop(int part, int k) {
        if (partTops[part] == null) {
            partTops[part] = new TopScores(k);
        } else {
            partTops[part].reset(k);
        }
        return partTops[part];
    }

    /** Part {@code part}'s best scores, as the part left them. */
    TopScores partTop(int part) {
        return partTops[part];
    }

    /** The exact best scores, emptied, keeping {@code k}. */
    TopScores exact(int k) {
        exact.reset(k);
        return exact;
    }

    /** Makes room for {@code parts} parts before they start, so that no part grows a shared array. */
    void reserveParts(int parts, int accumulatorLength, boolean shorts) {
        if (partTops.length < parts) {
            partTops = java.util.Arrays.copyOf(partTops, parts);
        }
        if (shorts) {
            if (shortAccumulators.length < parts) {
                shortAccumulators = java.util.Arrays.copyOf(shortAccumulators, parts);
            }
            for (int p = 0; p < parts; p++) {
                if (shortAccumulators[p] == null || shortAccumulators[p].length < accumulatorLength) {
                    shortAccumulators[p] = new short[accumulatorLength];
                }
            }
        } else {
            if (floatAccumulators.length < parts) {
                floatAccumulators = java.util.Arrays.copyOf(floatAccumulators, parts);
            }
            for (int p = 0; p < parts; p++) {
                if (floatAccumulators[p] == null || floatAccumulators[p].length < accumulatorLength) {
                    floatAccumulators[p] = new float[accumulatorLength];
                }
            }
        }
    }

    short[] shortAccumulator(int part, int length) {
        return shortAccumulators[part];
    }

    float[] floatAccumulator(int part, int length) {
        return floatAccumulators[part];
    }

    /** The query's 16-bit codes, {@code dimension} long. */
    short[] shortQuery(int dimension) {
        if (shortQuery.length != dimension) {
            shortQuery = new short[dimension];
        }
        return shortQuery;
    }

    float[] exactAccumulator(int n) {
        if (exactAccumulator.length < n) {
            exactAccumulator = new float[Math.max(n, 2 * exactAccumulator.length)];
        }
        return exactAccumulator;
    }

    /** Slots of the approximate best, at least {@code n} long. */
    int[] slots(int n) {
        if (slots.length < n) {
            slots = new int[n];
        }
        return slots;
    }

    /** Scores of the approximate best, at least {@code n} long. */
    float[] scores(int n) {
        if (scores.length < n) {
            scores = new float[n];
        }
        return scores;
    }

    /** The slots one re-scoring pass reads, at least {@code n} long. */
    int[] within(int n) {
        if (within.length < n) {
            within = new int[n];
        }
        return within;
    }

    /** One row's floats. */
    float[] row(int dimension) {
        if (row.length != dimension) {
            row = new float[dimension];
        }
        return row;
    }
}
