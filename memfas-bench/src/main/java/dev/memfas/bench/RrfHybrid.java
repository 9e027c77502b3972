package dev.memfas.bench;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.store.embedding.EmbeddingMatch;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The retrieval a JVM developer would assemble instead of memfas: LangChain4j's in-process model and its
 * {@code InMemoryEmbeddingStore} for the dense ranking, {@link PlainBm25} for the lexical one, and the two fused by
 * reciprocal rank ({@code score = sum of 1 / (60 + rank)}, ranks from 1), as Context Fabric and several hybrid stores
 * do.
 * Both lists are complete: every turn has a dense rank, every turn that shares a word with the question a lexical one.
 */
final class RrfHybrid {
    /** The constant of reciprocal rank fusion, as its authors (Cormack et al., 2009) and most stores set it. */
    static final int K = 60;
    private static final String INDEX = "index";

    private final EmbeddingModel model;
    private final InMemoryEmbeddingStore<TextSegment> store = new InMemoryEmbeddingStore<>();
    private final PlainBm25 bm25;
    private final int size;

    /** The dense, lexical and fused rankings of one question, as indexes into the turns, and the time they took. */
    record Rankings(List<Integer> dense, List<Integer> lexical, List<Integer> fused, double millis) {}

    /**
     * Indexes {@code texts}; their vectors come from {@code cache}, which asks {@code model} for the ones it lacks.
     */
    RrfHybrid(List<String> texts, EmbeddingModel model, VectorCache cache) {
        this.model = model;
        this.size = texts.size();
        List<float[]> vectors = cache.embed(texts, missing -> model.embedAll(missing.stream().map(TextSegment::from)
                .toList()).content().stream().map(Embedding::vector).toList());
        List<Embedding> embeddings = new ArrayList<>(size);
        List<TextSegment> segments = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            embeddings.add(Embedding.from(vectors.get(i)));
            segments.add(TextSegment.from(texts.get(i), new Metadata().put(INDEX, i)));
        }
        store.addAll(embeddings, segments);
        this.bm25 = new PlainBm25(texts);
    }

    /** Ranks every turn against {@code question}, the question's embedding included in the time. */
    Rankings rank(String question) {
        long start = System.nanoTime();
        Embedding query = model.embed(question).content();
        List<Integer> dense = new ArrayList<>(size);
        for (EmbeddingMatch<TextSegment> match : store.search(EmbeddingSearchRequest.builder().queryEmbedding(query)
                .maxResults(size).minScore(0.0).build()).matches()) {
            dense.add(match.embedded().metadata().getInteger(INDEX));
        }
        List<Integer> lexical = bm25.rank(question);
        List<Integer> fused = fuse(dense, lexical);
        return new Rankings(dense, lexical, fused, (System.nanoTime() - start) / 1e6);
    }

    /** Reciprocal rank fusion of two rankings; ties go to the better dense rank. */
    static List<Integer> fuse(List<Integer> dense, List<Integer> lexical) {
        Map<Integer, Double> scores = new HashMap<>();
        Map<Integer, Integer> denseRank = new HashMap<>();
        for (int r = 0; r < dense.size(); r++) {
            scores.merge(dense.get(r), 1.0 / (K + r + 1), Double::sum);
            denseRank.put(dense.get(r), r);
        }
        for (int r = 0; r < lexical.size(); r++) {
            scores.merge(lexical.get(r), 1.0 / (K + r + 1), Double::sum);
        }
        List<Integer> fused = new ArrayList<>(scores.keySet());
        fused.sort((a, b) -> {
            int byScore = Double.compare(scores.get(b), scores.get(a));
            return byScore != 0 ? byScore : Integer.compare(denseRank.getOrDefault(a, Integer.MAX_VALUE),
                    denseRank.getOrDefault(b, Integer.MAX_VALUE));
        });
        return fused;
    }
}
