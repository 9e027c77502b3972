package dev.memfas.core.turn;

import dev.memfas.ContextRequest;
import dev.memfas.spi.Embedder;
import dev.memfas.spi.Embeddings;
import dev.memfas.core.vector.Vectors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The one model call of a turn: embeds the query, and each message of the recent history if the request gives one,
 * in one call, as queries ({@link Embedder#embedQueries}): what the turn looks for among the memories. A message its
 * session asked as a query a turn before, or read in the history of the turn before, is not embedded again
 * ({@link SessionState#queryVector}): a chat's history moves by one exchange a turn. The query is
 * embedded with the names of the namespace's authors in it read as "someone" ({@link AuthorNames}); one that names no
 * author but refers to someone by a pronoun is read as naming the author its recent history names last.
 * Without an embedder it returns {@link QueryVectors#NONE}. Thread-safe if the embedder is.
 *
 * <p>A follow-up ({@link FollowUps}) is read by the query and the recent history, the history at
 * {@link FollowUps#HISTORY_WEIGHT} times the query's weight and read with the authors' names as "someone" too, and
 * asks about the messages of its history's latest exchange ({@link RelevanceGate}); any other query is read by its own
 * embedding and asks about that. The session's topic follows the query and the history at half weight either way.
 */
public final class QueryEmbedder {
    /** How much the recent history counts against the query in the turn's vector (and its terms in the topic). */
    static final float HISTORY_WEIGHT = 0.5f;
    /** What a message of the history weighs against the one after it: the latest says what a follow-up is about. */
    static final float MESSAGE_DECAY = 0.5f;
    /**
     * The latest messages of the history that are embedded: the sixth back weighs 1/32 of the latest, a seventh would
     * weigh 1/64, and a caller that passes a whole conversation would otherwise pay a text in the model call for each.
     */
    static final int MESSAGES_READ = 6;
    /**
     * The latest messages a follow-up asks about ({@link QueryVectors#asked}), one exchange: a question and the reply
     * to it. A follow-up points back at what was just said, and a reply that says little ("Let me check.") should not
     * leave it with nothing.
     */
    static final int EXCHANGE = 2;

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
        List<String> history = readWithHistory ? turn.history() : List.of();
        List<String> latestFirst = new ArrayList<>();
        for (int m = history.size() - 1; m >= 0 && latestFirst.size() < MESSAGES_READ; m--) {
            String message = history.get(m);
            if (!message.isBlank()) {
                // Read as the query is: a name in the history would otherwise pull the follow-up toward every memory
                // that says the name rather than toward what that author said.
                latestFirst.add(turn.followUp() ? authors.read(turn.namespace(), message).text() : message);
            }
        }
        // A message the session embedded as one of its queries is not embedded again.
        SessionState session = turn.session();
        float[][] messageVectors = new float[latestFirst.size()][];
        List<String> texts = new ArrayList<>();
        texts.add(reading.text());
        for (int m = 0; m < messageVectors.length; m++) {
            messageVectors[m] = session == null ? null : session.queryVector(latestFirst.get(m));
            if (messageVectors[m] == null && !texts.contains(latestFirst.get(m))) {
                texts.add(latestFirst.get(m));
            }
        }
        List<float[]> vectors = Embeddings.embedQueries(embedder, texts, "the query");
        float[] query = Vectors.normalizedCopy(vectors.get(0), embedder.dimension());
        if (session != null) {
            session.keepQueryVector(reading.text(), query);
        }
        if (messageVectors.length == 0) {
            return QueryVectors.alone(query, reading.named());
        }
        Map<String, float[]> read = new HashMap<>();
        for (int m = 0; m < messageVectors.length; m++) {
            if (messageVectors[m] == null) {
                messageVectors[m] = Vectors.normalizedCopy(vectors.get(texts.indexOf(latestFirst.get(m))),
                        embedder.dimension());
            }
            read.put(latestFirst.get(m), messageVectors[m]);
        }
        if (session != null) {
            session.keepMessageVectors(read);
        }
        float[] said = historyVector(messageVectors);
        float[] turnVector = blend(query, said, HISTORY_WEIGHT);
        if (!turn.followUp()) {
            return new QueryVectors(query, turnVector, List.of(), reading.named());
        }
        return new QueryVectors(blend(query, said, FollowUps.HISTORY_WEIGHT), turnVector,
                List.of(messageVectors).subList(0, Math.min(EXCHANGE, messageVectors.length)), reading.named());
    }

    /**
     * The history's unit vector from its latest {@value #MESSAGES_READ} messages' unit vectors, latest first: summed,
     * the latest at full weight and each one before it at half the weight of the next. Each message is embedded on its
     * own, so none falls out of the model's window (512 tokens for the default model: a long reply before a short
     * question would otherwise leave the question out).
     */
    private static float[] historyVector(float[][] latestFirst) {
        float[] sum = new float[latestFirst[0].length];
        float weight = 1;
        for (float[] v : latestFirst) {
            for (int d = 0; d < sum.length; d++) {
                sum[d] += weight * v[d];
            }
            weight *= MESSAGE_DECAY;
        }
        return Vectors.normalizedCopy(sum, sum.length);
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
        return QueryVectors.alone(vector, reading.named());
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
