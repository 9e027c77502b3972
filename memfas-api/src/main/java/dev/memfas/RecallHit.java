package dev.memfas;

import java.util.Objects;

/**
 * One result of a plain ranked search ({@link ContextCurator#recall}).
 *
 * @param memory the memory found
 * @param score its combined relevance in [0, 1], higher is better, comparable only within one search
 * @param factors the factors that made up the score
 */
public record RecallHit(Memory memory, double score, ScoreBreakdown factors) {
    /** Checks that every part is present and the score is a number. */
    public RecallHit {
        Objects.requireNonNull(memory, "memory");
        Objects.requireNonNull(factors, "factors");
        if (Double.isNaN(score)) {
            throw new IllegalArgumentException("score must be a number: " + score);
        }
    }
}
