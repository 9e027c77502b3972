package dev.memfas.core.vector;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The highest {@code k}-th best score any part of one scan has kept so far. The best {@code k} of all parts score at
 * least that, so every part can skip what scores below it: parts that start after another has finished keep a few
 * hundred offers instead of thousands (over 100K slots in eight parts, the offers and selections were a fifth of the
 * scan).
 */
final class ScanFloor {
    private final AtomicInteger bits = new AtomicInteger();

    ScanFloor() {
        reset();
    }

    /** Lowers the floor to negative infinity, for a new scan. */
    void reset() {
        bits.set(Float.floatToRawIntBits(Float.NEGATIVE_INFINITY));
    }

    /**
     * A score just below the floor: offers above it are kept. Just below, so that a score equal to another part's
     * {@code k}-th still enters, as it would without the floor.
     */
    float below() {
        return Math.nextDown(Float.intBitsToFloat(bits.get()));
    }

    void raise(float score) {
        int current = bits.get();
        while (score > Float.intBitsToFloat(current) && !bits.compareAndSet(current, Float.floatToRawIntBits(score))) {
            current = bits.get();
        }
    }
}
