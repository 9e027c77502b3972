package dev.memfas.core;

import dev.memfas.ScoreBreakdown;
import dev.memfas.StoredMemory;

/** One memory under consideration in a turn: its raw signals, then its factors and score. Not thread-safe. */
final class Candidate {
    final StoredMemory stored;
    /** Row of this memory's vector in the turn's gathered matrix, or -1 without one. */
    int row = -1;
    float cosine = Float.NaN;
    double bm25;
    boolean linkedByTrigger;
    /** The memory as a full envelope item, once rendered this turn (null until then). */
    String rendered;
    /** The token count of the memory as a full envelope item, once known this turn (-1 until then). */
    int tokens = -1;
    /** The hash of the normalized text for duplicate checks, once computed ({@link #hasTextHash}). */
    long textHash;
    boolean hasTextHash;
    /**
     * The signals scoring reads from the memory and the turn before normalizing, kept once computed
     * ({@link #hasSignals}): when neighbors join, the whole set is scored again and only theirs are new.
     */
    boolean hasSignals;
    double recency;
    double frequency;
    double topic;
    double scope;
    double priority;
    double hot;
    ScoreBreakdown factors = ScoreBreakdown.ZERO;
    double score;

    Candidate(StoredMemory stored) {
        this.stored = stored;
    }

    String id() {
        return stored.memory().id();
    }
}
