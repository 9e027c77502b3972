package dev.memfas.testkit;

import dev.memfas.spi.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A deterministic bag-of-words embedder for store tests: each word adds 1 to a dimension chosen by its hash, so texts
 * that share words have a positive cosine. Not a model of meaning; no model is loaded.
 *
 * @param modelId the model id it reports (a store keeps it as its vector space)
 * @param dimension its vectors' dimension
 */
public record WordEmbedder(String modelId, int dimension) implements Embedder {
    @Override
    public List<float[]> embedAll(List<String> texts) {
        List<float[]> out = new ArrayList<>();
        for (String text : texts) {
            float[] v = new float[dimension];
            for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
                if (!w.isEmpty()) {
                    v[Math.floorMod(w.hashCode(), dimension)] += 1f;
                }
            }
            v[0] += 0.01f;
            out.add(v);
        }
        return out;
    }
}
