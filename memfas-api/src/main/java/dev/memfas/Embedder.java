package dev.memfas;

import java.util.List;

/**
 * Turns text into vectors whose dot product measures meaning: the source of semantic similarity.
 *
 * <p>Implementations must be thread-safe and deterministic: the same text gives the same vector whether it is embedded
 * alone or in a batch. The vectors need not be normalized; the curator normalizes them.
 */
public interface Embedder {

    /**
     * Embeds a batch of texts.
     *
     * @return one vector of length {@link #dimension()} per text, in order
     * @throws MemfasException if the model fails
     */
    List<float[]> embedAll(List<String> texts);

    /** The length of every vector this embedder returns. */
    int dimension();

    /** Names the model, so a store never mixes vectors of different models, e.g. {@code "all-minilm-l6-v2"}. */
    String modelId();

    /** Embeds one text. */
    default float[] embed(String text) {
        return embedAll(List.of(text)).get(0);
    }
}
