package dev.memfas.postgres;

import dev.memfas.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A deterministic bag-of-words embedder for tests: each word adds 1 to a dimension chosen by its hash. */
record WordEmbedder(String modelId, int dimension) implements Embedder {
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
