package dev.memfas.core.vector;

import java.util.Arrays;

/**
 * Keeps the {@code k} highest scores offered, with an int payload (a slot) each. Not thread-safe.
 *
 * <p>Offers above the current {@link #threshold()} are appended to a buffer of up to {@code 2k} entries; when it is
 * full, a selection keeps its best {@code k} and raises the threshold to the lowest of them. A binary heap would move
 * entries on every accepted offer, with a branch the CPU cannot predict at each level: over a small index, where most
 * offers are accepted, that cost more than scanning the vectors. Here an accepted offer is one store, and the
 * selection runs once per {@code k} accepted offers.
 *
 * <p>Each entry is one {@code long}: the score's bits, made to order as the floats do, above the slot. Equal scores
 * keep the lower slot.
 */
public final class TopScores {
    /**
     * Buffers start this small, and grow by doubling to {@code 2k}, so a large {@code k} costs only what is offered.
     */
    private static final int MIN_CAPACITY = 64;

    private int k;
    private long[] entries;
    private int size;
    private float threshold = Float.NEGATIVE_INFINITY;

    public TopScores(int k) {
        if (k <= 0) {
            throw new IllegalArgumentException("k must be positive: " + k);
        }
        this.k = k;
        entries = new long[(int) Math.min(2L * k, MIN_CAPACITY)];
    }

    /**
     * Empties this for another use, keeping {@code k} from now on. The buffer is kept: a buffer larger than
     * {@code 2k} only makes selections rarer.
     */
    public void reset(int k) {
        if (k <= 0) {
            throw new IllegalArgumentException("k must be positive: " + k);
        }
        this.k = k;
        size = 0;
        threshold = Float.NEGATIVE_INFINITY;
    }

    /**
     * A score no higher than the lowest of the best {@code k} kept so far: offers at or below it are not kept. Negative
     * infinity until {@code k} have been offered; then it rises as better scores come.
     */
    public float threshold() {
        return threshold;
    }

    public void offer(int slot, float score) {
        if (!(score > threshold)) {
            return;
        }
        if (size == entries.length) {
            if (entries.length < 2L * k) {
                entries = Arrays.copyOf(entries, (int) Math.min(2L * k, 2L * entries.length));
            } else {
                keepBest();
                if (!(score > threshold)) {
                    return;
                }
            }
        }
        entries[size++] = entry(score, slot);
    }

    /** Offers every entry another one keeps (leaving it unchanged). */
    public void offerAll(TopScores other) {
        for (int i = 0; i < other.size; i++) {
            long e = other.entries[i];
            offer(slot(e), score(e));
        }
    }

    /** How many entries the best {@code k} hold: {@code k}, or fewer if fewer were offered. */
    public int size() {
        return Math.min(size, k);
    }

    /**
     * The {@code rank}-th best score kept (1 is the best).
     *
     * @throws IllegalArgumentException if {@code rank} is not within {@code [1, size()]}
     */
    public float scoreAt(int rank) {
        if (rank < 1 || rank > size()) {
            throw new IllegalArgumentException("rank " + rank + " is not within [1, " + size() + "]");
        }
        keepBest();
        int at = size - rank;
        select(entries, 0, size, at);
        return score(entries[at]);
    }

    /**
     * Empties the best {@code k} into the arrays, best first.
     *
     * @return how many entries were written
     */
    public int drainDescending(int[] slotsOut, float[] scoresOut) {
        keepBest();
        Arrays.sort(entries, 0, size);
        int n = size;
        for (int i = 0; i < n; i++) {
            long e = entries[n - 1 - i];
            slotsOut[i] = slot(e);
            scoresOut[i] = score(e);
        }
        size = 0;
        return n;
    }

    /**
     * Empties the best {@code k} into the arrays in no particular order; cheaper than {@link #drainDescending}.
     *
     * @return how many entries were written
     */
    public int drain(int[] slotsOut, float[] scoresOut) {
        keepBest();
        int n = size;
        for (int i = 0; i < n; i++) {
            slotsOut[i] = slot(entries[i]);
            scoresOut[i] = score(entries[i]);
        }
        size = 0;
        return n;
    }

    /** Cuts the buffer down to its best {@code k} (if it holds more) and raises the threshold to the lowest of them. */
    private void keepBest() {
        if (size > k) {
            int from = size - k;
            select(entries, 0, size, from);
            System.arraycopy(entries, from, entries, 0, k);
            size = k;
            threshold = score(entries[0]);
        } else if (size == k) {
            long lowest = entries[0];
            for (int i = 1; i < size; i++) {
                lowest = Math.min(lowest, entries[i]);
            }
            threshold = score(lowest);
        }
    }

    /**
     * Reorders {@code a[from, to)} so that {@code a[at]} holds the value it would hold if the range were sorted, no
     * value before it is greater and none after it is smaller (quickselect; entries are distinct, as slots are).
     */
    static void select(long[] a, int from, int to, int at) {
        int lo = from;
        int hi = to - 1;
        // Past this many rounds the pivots are being chosen badly; sorting the rest bounds the time.
        int rounds = 2 * (32 - Integer.numberOfLeadingZeros(to - from)) + 8;
        while (hi > lo) {
            if (rounds-- == 0) {
                Arrays.sort(a, lo, hi + 1);
                return;
            }
            int mid = (lo + hi) >>> 1;
            long pivot = medianOfThree(a[lo], a[mid], a[hi]);
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (a[i] < pivot) {
                    i++;
                }
                while (a[j] > pivot) {
                    j--;
                }
                if (i <= j) {
                    long t = a[i];
                    a[i] = a[j];
                    a[j] = t;
                    i++;
                    j--;
                }
            }
            // Now a[lo..j] <= pivot <= a[i..hi], and anything between equals the pivot.
            if (at <= j) {
                hi = j;
            } else if (at >= i) {
                lo = i;
            } else {
                return;
            }
        }
    }

    private static long medianOfThree(long a, long b, long c) {
        return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    }

    /**
     * One entry: the score's bits in the high half, flipped for negative scores so that entries order as their scores
     * do, and the slot in the low half, stored so that of two equal scores the lower slot is the greater entry.
     */
    static long entry(float score, int slot) {
        int bits = Float.floatToIntBits(score);
        bits ^= (bits >> 31) & Integer.MAX_VALUE;
        return ((long) bits << 32) | (Integer.MAX_VALUE - slot);
    }

    static float score(long entry) {
        int bits = (int) (entry >> 32);
        bits ^= (bits >> 31) & Integer.MAX_VALUE;
        return Float.intBitsToFloat(bits);
    }

    static int slot(long entry) {
        return Integer.MAX_VALUE - (int) entry;
    }
}
