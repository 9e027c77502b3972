package dev.memfas.core;

import dev.memfas.spi.Embedder;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * An embedder for unit tests that places each known text at a given cosine with every unknown text (the queries):
 * each known text also has a dimension of its own, so two known texts' cosine is the product of theirs. Its relevance
 * floor is 0.5; its meaning-alone floor is the one given, or none (NaN).
 */
public record PlacedEmbedder(Map<String, Double> cosines, double meaningAlone) implements Embedder {
    @Override
    public List<float[]> embedAll(List<String> texts) {
        List<String> placed = cosines.keySet().stream().sorted().toList();
        return texts.stream().map(t -> {
            float[] v = new float[dimension()];
            double c = cosines.getOrDefault(t, 1.0);
            v[0] = (float) c;
            if (c < 1) {
                v[1 + placed.indexOf(t)] = (float) Math.sqrt(1 - c * c);
            }
            return v;
        }).toList();
    }

    @Override
    public int dimension() {
        return Math.max(16, cosines.size() + 1);
    }

    @Override
    public String modelId() {
        return "placed";
    }

    @Override
    public OptionalDouble relevanceFloor() {
        return OptionalDouble.of(0.5);
    }

    @Override
    public OptionalDouble meaningAloneFloor() {
        return Double.isNaN(meaningAlone) ? OptionalDouble.empty() : OptionalDouble.of(meaningAlone);
    }
}
