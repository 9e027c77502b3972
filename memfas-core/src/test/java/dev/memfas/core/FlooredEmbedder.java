package dev.memfas.core;

import dev.memfas.spi.Embedder;
import java.util.List;
import java.util.OptionalDouble;

/**
 * An embedder's vectors with a relevance floor of one's choosing: over {@link HashingEmbedder}, texts sharing no term
 * score about 0 and one shared term well above 0.3.
 */
public record FlooredEmbedder(Embedder terms, double floor) implements Embedder {
    @Override
    public List<float[]> embedAll(List<String> texts) {
        return terms.embedAll(texts);
    }

    @Override
    public int dimension() {
        return terms.dimension();
    }

    @Override
    public String modelId() {
        return terms.modelId();
    }

    @Override
    public OptionalDouble relevanceFloor() {
        return OptionalDouble.of(floor);
    }
}
