package dev.memfas.core;

/**
 * Keeps the {@code k} highest scores seen, with an int payload each, in a primitive min-heap: no allocation per
 * offer. Not thread-safe.
 */
final class TopScores {
    private final float[] scores;
    private final int[] slots;
    private int size;

    TopScores(int k) {
        if (k <= 0) {
            throw new IllegalArgumentException("k must be positive: " + k);
        }
        scores = new float[k];
        slots = new int[k];
    }

    /** The lowest score kept, or negative infinity while fewer than k are kept. */
    float threshold() {
        return size < scores.length ? Float.NEGATIVE_INFINITY : scores[0];
    }

    void offer(int slot, float score) {
        if (size < scores.length) {
            int i = size++;
            scores[i] = score;
            slots[i] = slot;
            siftUp(i);
        } else if (score > scores[0]) {
            scores[0] = score;
            slots[0] = slot;
            siftDown(0);
        }
    }

    /** Offers every entry another heap keeps (leaving it unchanged). */
    void offerAll(TopScores other) {
        for (int i = 0; i < other.size; i++) {
            offer(other.slots[i], other.scores[i]);
        }
    }

    int size() {
        return size;
    }

    /**
     * Empties the heap into the arrays, best first.
     *
     * @return how many entries were written
     */
    int drainDescending(int[] slotsOut, float[] scoresOut) {
        int n = size;
        for (int i = n - 1; i >= 0; i--) {
            slotsOut[i] = slots[0];
            scoresOut[i] = scores[0];
            size--;
            scores[0] = scores[size];
            slots[0] = slots[size];
            siftDown(0);
        }
        return n;
    }

    private void siftUp(int i) {
        float s = scores[i];
        int slot = slots[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (scores[parent] <= s) {
                break;
            }
            scores[i] = scores[parent];
            slots[i] = slots[parent];
            i = parent;
        }
        scores[i] = s;
        slots[i] = slot;
    }

    private void siftDown(int i) {
        float s = scores[i];
        int slot = slots[i];
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            int right = child + 1;
            if (right < size && scores[right] < scores[child]) {
                child = right;
            }
            if (s <= scores[child]) {
                break;
            }
            scores[i] = scores[child];
            slots[i] = slots[child];
            i = child;
        }
        scores[i] = s;
        slots[i] = slot;
    }
}
