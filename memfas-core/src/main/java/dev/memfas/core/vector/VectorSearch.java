package dev.memfas.core.vector;

import java.util.Arrays;

/**
 * One search of a {@link VectorIndex}, begun under the index's read lock and finished (or closed) on the thread that
 * began it: the code scan in parts on the caller and the helpers, then exact re-scoring of the approximate best
 * ({@link #rescoreBest}). Its scratch space is a pooled {@link SearchScratch}.
 */
public final class VectorSearch implements AutoCloseable {
    private final VectorIndex index;
    private final ExactColumns exact;
    private final CodeLayout codes;
    private final FloatRows rows;
    private final int dimension;
    private final float[] query;
    private final int n;
    private final int keep;
    private final int approximate;
    private final SearchScratch scratch;
    /** The code scan under way, or null when the search scores exactly at {@link #finish()}. */
    private final ScanThreads.Job scan;
    private final int parts;
    private boolean done;

    VectorSearch(VectorIndex index, float[] query, int k, int threads, boolean callerBusy) {
        this.index = index;
        this.exact = index.exact();
        this.codes = index.codes();
        this.rows = index.rows();
        this.dimension = index.dimension();
        this.query = query;
        this.n = index.sizeUnderLock();
        this.keep = Math.min(k, n);
        this.approximate = 2 * keep + VectorIndex.RESCORE_EXTRA;
        this.scratch = SearchScratch.take();
        if (n == 0 || exact != null || approximate >= n || codes.tooCoarse()) {
            // Nothing to scan, a small index scored exactly, or a code scan that would keep every slot for
            // re-scoring anyway (or, at a huge dimension, be too coarse to trust): all exact, at finish.
            scan = null;
            parts = 0;
            return;
        }
        CodeLayout layout = codes;
        // Parts begin on a tile, as the int8 kernel scores whole tiles. With work alongside, finer parts let the
        // helpers take more of the scan while the caller is busy, and they begin on a block: a part cut inside a block
        // reads each of its columns in short runs, which the prefetcher serves poorly (even eighths of 100K 16-bit
        // codes cut runs of 424 slots; turns at 100K alternating in one JVM, 0.93 of the time with parts on blocks).
        // Alone, the scan splits evenly, as whole blocks would leave one thread up to a block behind.
        boolean alongside = callerBusy && threads > 1;
        int unit = alongside ? layout.blockSize() : VectorKernels.TILE;
        int units = (n + unit - 1) / unit;
        parts = alongside ? Math.min(units, VectorIndex.parts(n, VectorIndex.PARTS_PER_THREAD * threads))
                : VectorIndex.parts(n, threads);
        layout.prepare(query, scratch);
        scratch.reserveParts(parts, layout.blockSize(), layout instanceof ShortCodes);
        scratch.floor.reset();
        int count = parts;
        int keepApproximate = approximate;
        scan = ScanThreads.start(parts, threads, part -> {
            int from = ScanThreads.start(units, part, count) * unit;
            int to = Math.min(n, ScanThreads.start(units, part + 1, count) * unit);
            layout.scan(query, scratch, part, from, to, scratch.floor, scratch.partTop(part, keepApproximate));
        });
    }

    /** Waits for the scan, re-scores, and returns the hits, best first. */
    public Hits finish() {
        if (done) {
            throw new IllegalStateException("the search is finished");
        }
        done = true;
        try {
            if (n == 0) {
                return Hits.EMPTY;
            }
            TopScores top;
            if (exact != null) {
                top = scratch.exact(keep);
                exact.scan(query, n, scratch.exactAccumulator(n), top);
            } else if (scan == null) {
                int[] all = scratch.within(n);
                for (int i = 0; i < n; i++) {
                    all[i] = i;
                }
                top = scratch.exact(keep);
                rescore(all, n, query, top);
            } else {
                scan.join(null);
                top = rescoreBest();
            }
            int m = top.size();
            int[] slots = new int[m];
            float[] scores = new float[m];
            top.drainDescending(slots, scores);
            String[] hitIds = new String[m];
            for (int i = 0; i < m; i++) {
                hitIds[i] = index.idAt(slots[i]);
            }
            return new Hits(hitIds, scores, slots);
        } finally {
            release();
        }
    }

    /**
     * The true best {@code k} of the scan's approximate best. First the approximate best {@code k}, exactly: their
     * {@code k}-th exact score is a floor for the true {@code k}-th. Then only those whose approximate score is
     * within one error of that floor, or of twice the error below the approximate {@code k}-th, whichever is
     * higher, can still be among the true best.
     */
    private TopScores rescoreBest() {
        TopScores candidates = scratch.partTop(0);
        for (int p = 1; p < parts; p++) {
            candidates.offerAll(scratch.partTop(p));
        }
        // The scan kept 2k + 64 < n slots, so more than k.
        float kth = candidates.scoreAt(keep);
        int count = candidates.size();
        int[] slots = scratch.slots(count);
        float[] scores = scratch.scores(count);
        candidates.drain(slots, scores);
        double margin = codes.errorMargin(slots, count, query);
        TopScores top = scratch.exact(keep);
        int[] within = scratch.within(count);
        rescore(within, within(slots, scores, count, kth, Float.POSITIVE_INFINITY, within), query, top);
        double lowest = kth - margin;
        double scanUnits = codes.scanUnitsPerExactUnit(query);
        if (top.size() == keep && scanUnits > 0) {
            lowest = Math.max(lowest, top.scoreAt(keep) * scanUnits - margin / 2);
        }
        rescore(within, within(slots, scores, count, lowest, kth, within), query, top);
        return top;
    }

    /** Waits for a scan never finished, and lets go of the lock. */
    @Override
    public void close() {
        if (!done) {
            done = true;
            try {
                if (scan != null) {
                    scan.join(null);
                }
            } finally {
                release();
            }
        }
    }

    /** Offers the exact float scores of {@code slots[0, count)} to {@code top}. */
    private void rescore(int[] slots, int count, float[] query, TopScores top) {
        rows.touch(slots, 0, count);
        float[] row = scratch.row(dimension);
        for (int i = 0; i < count; i++) {
            rows.read(slots[i], row, 0);
            top.offer(slots[i], Vectors.dot(row, 0, query, 0, dimension));
        }
    }

    private void release() {
        SearchScratch.release(scratch);
        index.lock().readLock().unlock();
    }

    /**
     * Writes to {@code out} the slots whose approximate score is at least {@code from} and below {@code to}, in slot
     * order, and returns how many.
     */
    private static int within(int[] slots, float[] approximate, int count, double from, double to, int[] out) {
        int n = 0;
        for (int i = 0; i < count; i++) {
            if (approximate[i] >= from && approximate[i] < to) {
                out[n++] = slots[i];
            }
        }
        // Slot order reads the rows forwards.
        Arrays.sort(out, 0, n);
        return n;
    }
}
