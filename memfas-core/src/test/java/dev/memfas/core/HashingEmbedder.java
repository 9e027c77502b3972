package dev.memfas.core;

import dev.memfas.core.text.TextAnalyzer;
import dev.memfas.spi.Embedder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A deterministic bag-of-terms embedder for unit tests of the pipeline's logic: each analyzed term adds 1 to a
 * dimension chosen by its hash, so texts sharing terms have a positive cosine. Not a model of meaning.
 */
public final class HashingEmbedder implements Embedder {
    private final int dimension;
    public final AtomicInteger calls = new AtomicInteger();
    /** Every text embedded, in order. */
    public final List<String> embedded = Collections.synchronizedList(new ArrayList<>());

    public HashingEmbedder(int dimension) {
        this.dimension = dimension;
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        calls.incrementAndGet();
        embedded.addAll(texts);
        List<float[]> out = new ArrayList<>(texts.size());
        for (String text : texts) {
            float[] v = new float[dimension];
            for (String term : TextAnalyzer.terms(text)) {
                v[Math.floorMod(term.hashCode(), dimension)] += 1f;
            }
            v[dimension - 1] += 0.01f; // never a zero vector
            out.add(v);
        }
        return out;
    }

    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public String modelId() {
        return "hashing-" + dimension;
    }
}
