package dev.memfas.core.turn;

import dev.memfas.ContextRequest;
import dev.memfas.spi.Embedder;
import dev.memfas.spi.Embeddings;
import dev.memfas.core.vector.Vectors;
import java.util.List;

/**
 * The one model call of a turn: embeds the query, and the recent history if the request gives one, in one call, as
 * queries ({@link Embedder#embedQueries}): what the turn looks for among the memories. The query is embedded with
 * the names of the namespace's authors in it read as "someone" ({@link AuthorNames}); one that names no author but
 * refers to someone by a pronoun is read as naming the author its recent history names last.
 * Without an embedder it returns {@link QueryVectors#NONE}. Thread-safe if the embedder is.
 *
 * <p>A follow-up ({@link FollowUps}) is read by the query and the recent history, the history at
 * {@link FollowUps#HISTORY_WEIGHT} times the query's weight and read with the authors' names as "someone" too; any
 * other query by its own embedding. The session's topic follows the query and the history at half weight either way.
 */
public final class QueryEmbedder {
    /** How much the recent history counts against the query in the turn's vector (and its terms in the topic). */
    static final float HISTORY_WEIGHT = 0.5f;

    private final Embedder embedder;
    private final AuthorNames authors;

    /** @param embedder the curator's embedder, or null */
    public QueryEmbedder(Embedder embedder, AuthorNames authors) {
        this.embedder = embedder;
        this.authors = authors;
    }

    public QueryVectors embed(Turn turn) {
        ContextRequest request = turn.request();
        if (embedder == null) {
            return QueryVectors.NONE;
        }
        AuthorNames.Reading reading = turn.reading();
        // The session's queries stand in for a history only for a follow-up: the topic has followed them already.
        boolean readWithHistory = !request.recentHistory().isEmpty() || turn.followUp();
        String history = readWithHistory ? String.join("\n", turn.history()) : "";
        if (turn.followUp()) {
            // Read as the query is: a name in the history would otherwise pull the follow-up toward every memory that
            // says the name rather than toward what that author said.
            history = authors.read(turn.namespace(), history).text();
        }
        List<float[]> vectors = Embeddings.embedQueries(embedder,
                history.isBlank() ? List.of(reading.text()) : List.of(reading.text(), history), "the query");
        float[] query = Vectors.normalizedCopy(vectors.get(0), embedder.dimension());
        if (vectors.size() == 1) {
            return new QueryVectors(query, query, reading.named());
        }
        float[] said = Vectors.normalizedCopy(vectors.get(1), embedder.dimension());
        float[] read = turn.followUp() ? blend(query, said, FollowUps.HISTORY_WEIGHT) : query;
        return new QueryVectors(read, blend(query, said, HISTORY_WEIGHT), reading.named());
    }

    /** The texts' unit vectors, in one model call; null without an embedder. */
    public List<float[]> embedTexts(List<String> texts, String what) {
        if (embedder == null) {
            return null;
        }
        List<float[]> out = new java.util.ArrayList<>(texts.size());
        for (float[] v : Embeddings.embed(embedder, texts, what)) {
            out.add(Vectors.normalizedCopy(v, embedder.dimension()));
        }
        return out;
    }

    /** A search's query alone, read as a turn reads it (the namespace's author names as "someone"). */
    QueryVectors embedSearch(String namespace, String query) {
        if (embedder == null) {
            return QueryVectors.NONE;
        }
        AuthorNames.Reading reading = authors.read(namespace, query);
        float[] vector = embedOne(reading.text());
        return new QueryVectors(vector, vector, reading.named());
    }

    /** A phrase that is not a question about anyone (a topic), as it is. */
    float[] embedPhrase(String phrase) {
        return embedder == null ? null : embedOne(phrase);
    }

    private float[] embedOne(String text) {
        return Vectors.normalizedCopy(Embeddings.embedQueries(embedder, List.of(text), "the query").get(0),
                embedder.dimension());
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
