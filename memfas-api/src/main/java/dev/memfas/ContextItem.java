package dev.memfas;

import java.util.Objects;

/**
 * One memory included in a curated context, with why it was chosen.
 *
 * @param memoryId the memory's id
 * @param source the memory's source
 * @param section which part of the envelope the memory is in
 * @param layer the layer the memory came from: the session's working memory, or the project or global layer of the
 *     store ({@link Layer#of(Memory)})
 * @param score the weighted score in [0, 1] (for triggered memories, the score they would have had, or 0 if they
 *     were not among the candidates)
 * @param factors the per-factor breakdown of the score
 * @param tokens the tokens this item takes in the context, its label included
 * @param truncated whether the memory's text was cut to fit the per-item cap (the context then shows a marker where
 *     it was cut: at the end, and at the start too when the cut keeps the passage on the query rather than the
 *     beginning)
 * @param text the memory's text as the context holds it: whole, or, when {@code truncated}, the part kept (without the
 *     markers); for a caller that places memories itself, such as a retriever of another framework
 */
public record ContextItem(
        String memoryId,
        String source,
        Section section,
        Layer layer,
        double score,
        ScoreBreakdown factors,
        int tokens,
        boolean truncated,
        String text) {

    /** The envelope sections an item can be in. */
    public enum Section {
        /** Linked from a trigger that fired on the query. */
        TRIGGERED,
        /** Chosen by score. */
        RELEVANT
    }

    /** Checks the components are present. */
    public ContextItem {
        Objects.requireNonNull(memoryId, "memoryId");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(section, "section");
        Objects.requireNonNull(layer, "layer");
        Objects.requireNonNull(factors, "factors");
        Objects.requireNonNull(text, "text");
    }
}
