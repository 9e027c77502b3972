package dev.memfas.spi;

import java.util.Objects;

/**
 * One result of a store's lexical (BM25) search.
 *
 * @param memoryId the matching memory
 * @param score the BM25 relevance; positive, higher is better, comparable only within one search
 */
public record LexicalHit(String memoryId, double score) {
    /** Checks the id is present and the score is a positive number. */
    public LexicalHit {
        Objects.requireNonNull(memoryId, "memoryId");
        if (!(score > 0) || Double.isInfinite(score)) {
            throw new IllegalArgumentException("lexical score must be positive and finite: " + score);
        }
    }
}
