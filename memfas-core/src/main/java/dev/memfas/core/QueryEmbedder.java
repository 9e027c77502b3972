package dev.memfas.core;

import dev.memfas.ContextRequest;
import dev.memfas.Embedder;
import dev.memfas.Embeddings;
import dev.memfas.core.vector.Vectors;
import java.util.List;

/**
 * The one model call of a turn: embeds the query, and the recent history if the request gives one, in one call.
 * Without an embedder it returns {@link QueryVectors#NONE}. Thread-safe if the embedder is.
 *
 * <p>A query that names almost nothing (at most {@value #FOLLOW_UP_MAX_WORDS} word that is not a stop word: "Tell me
 * more about that.", "And her sister?", "Why?") is a follow-up, and is read with its conversation: what finds and
 * scores memories is the query and the recent history at equal weight. Asked as such follow-ups with the question as
 * history, LoCoMo's questions found .503 of their evidence at 1,024 tokens instead of .048 read alone (history at half
 * weight: .313; at a quarter: .134); no LoCoMo or LongMemEval question is that short, so a question that stands on its
 * own is read alone whatever precedes it (a rule of two words read LoCoMo's after the previous question .824 instead
 * of .827 at 1,024, and let two-word general questions such as "What is the capital of France?" fill 12% of the
 * budget instead of 5%).
 */
final class QueryEmbedder {
    /** How much the recent history counts against the query in the turn's vector (and its terms in the topic). */
    static final float HISTORY_WEIGHT = 0.5f;
    /** The most words, stop words aside, of a query read with its conversation. */
    static final int FOLLOW_UP_MAX_WORDS = 1;
    /** How much the recent history counts against a follow-up's own words in what it is read by. */
    static final float FOLLOW_UP_HISTORY_WEIGHT = 1.0f;

    private final Embedder embedder;

    /** @param embedder the curator's embedder, or null */
    QueryEmbedder(Embedder embedder) {
        this.embedder = embedder;
    }

    QueryVectors embed(ContextRequest request) {
        if (embedder == null) {
            return QueryVectors.NONE;
        }
        String history = String.join("\n", request.recentHistory());
        List<float[]> vectors = Embeddings.embed(embedder,
                history.isBlank() ? List.of(request.query()) : List.of(request.query(), history), "the query");
        float[] query = Vectors.normalizedCopy(vectors.get(0), embedder.dimension());
        if (vectors.size() == 1) {
            return new QueryVectors(query, query);
        }
        float[] said = Vectors.normalizedCopy(vectors.get(1), embedder.dimension());
        float[] read = isFollowUp(request.query()) ? blend(query, said, FOLLOW_UP_HISTORY_WEIGHT) : query;
        return new QueryVectors(read, blend(query, said, HISTORY_WEIGHT));
    }

    /** Whether a query names too little to be read alone. */
    static boolean isFollowUp(String query) {
        return TextAnalyzer.words(query).size() <= FOLLOW_UP_MAX_WORDS;
    }

    /** The texts' unit vectors, in one model call; null without an embedder. */
    List<float[]> embedTexts(List<String> texts, String what) {
        if (embedder == null) {
            return null;
        }
        List<float[]> out = new java.util.ArrayList<>(texts.size());
        for (float[] v : Embeddings.embed(embedder, texts, what)) {
            out.add(Vectors.normalizedCopy(v, embedder.dimension()));
        }
        return out;
    }

    /** The query alone, for a search. */
    QueryVectors embedQuery(String query) {
        if (embedder == null) {
            return QueryVectors.NONE;
        }
        float[] vector = Vectors.normalizedCopy(Embeddings.embed(embedder, List.of(query), "the query").get(0),
                embedder.dimension());
        return new QueryVectors(vector, vector);
    }

    /** The unit vector of the query plus the (unit) history at {@code weight}. */
    private static float[] blend(float[] query, float[] history, float weight) {
        float[] mixed = new float[history.length];
        for (int d = 0; d < history.length; d++) {
            mixed[d] = query[d] + weight * history[d];
        }
        return Vectors.normalizedCopy(mixed, mixed.length);
    }
}
