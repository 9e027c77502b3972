package dev.memfas.spi;

import dev.memfas.MemfasException;
import dev.memfas.policy.WorldKnowledgeProbe;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Turns text into vectors whose dot product measures meaning: the source of semantic similarity.
 *
 * <p>Implementations must be thread-safe and deterministic: the same text gives the same vector whether it is embedded
 * alone or in a batch. The vectors need not be normalized; the curator normalizes them.
 */
public interface Embedder {

    /**
     * Embeds a batch of texts: the memories stored, and any text compared with them as their equal.
     *
     * @return one vector of length {@link #dimension()} per text, in order
     * @throws MemfasException if the model fails
     */
    List<float[]> embedAll(List<String> texts);

    /**
     * Embeds a batch of queries: what a turn or a search looks for among the memories. A model trained to read a query
     * and the passages that answer it differently (e5 marks them {@code "query: "} and {@code "passage: "}) embeds
     * each its own way; by default a query is embedded as any text ({@link #embedAll}). The same rules hold: one
     * vector per query, in order, the same alone as in a batch.
     *
     * @return one vector of length {@link #dimension()} per query, in order
     * @throws MemfasException if the model fails
     */
    default List<float[]> embedQueries(List<String> queries) {
        return embedAll(queries);
    }

    /** The length of every vector this embedder returns. */
    int dimension();

    /** Names the model, so a store never mixes vectors of different models, e.g. {@code "all-minilm-l6-v2"}. */
    String modelId();

    /**
     * The cosine similarity below which a text is unrelated to a query for this model, when the model is calibrated:
     * a turn whose best memory does not reach it has nothing relevant to add, and its context holds only what triggers
     * and pinning put there. Cosines are not comparable across models (the best match a general-knowledge question
     * finds among a personal conversation's turns scores about 0.19 with all-MiniLM-L6-v2 and 0.51 with
     * bge-small-en-v1.5, at the median), so the value belongs to the model. Empty when unknown:
     * the curator then includes the best memories whatever they score. {@code Memfas.Builder.relevanceFloor}
     * overrides it.
     */
    default OptionalDouble relevanceFloor() {
        return OptionalDouble.empty();
    }

    /**
     * The cosine at or above which a memory is relevant to a query on meaning alone, for this model, when the model is
     * calibrated; at or above the {@link #relevanceFloor() relevance floor}. A turn whose best memory is between the
     * two is curated in full only if that memory also shares a word with the query (a lexical search found it): two
     * ways of reading agree that something matches; otherwise it gets only the memories at the floor or above. A
     * model's nearest-neighbour cosines are noisy, so among a few hundred turns on many topics a general question's
     * best match often scores just above the floor on meaning it does not share ("What is the square root of 144?" and a reading of someone's horoscope,
     * 0.60 with bge-small-en-v1.5). Empty when unknown: the curator then uses the relevance floor, so meaning alone
     * decides. {@code Memfas.Builder.meaningAloneFloor} overrides it.
     */
    default OptionalDouble meaningAloneFloor() {
        return OptionalDouble.empty();
    }

    /**
     * The cosine between a turn and its session's topic below which the turn starts a new topic for this model, when
     * the model is calibrated: the session then forgets its hot memories and its topic restarts from the turn. Like
     * the relevance floor it belongs to the model (an unrelated conversation's opening scores about 0.05 against a
     * topic with all-MiniLM-L6-v2 and 0.53 with bge-small-en-v1.5, at the median). Empty when unknown: the curator
     * then uses 0.35, or what {@code Memfas.Builder.topicShiftThreshold} says.
     */
    default OptionalDouble topicShiftThreshold() {
        return OptionalDouble.empty();
    }

    /**
     * How the curator tells, for this model, a question about the world from one about what the memories hold, when the
     * model is calibrated. Memories are what the model answering the agent cannot know; asked "How many minutes are in
     * a day?", a store of one person's conversations has at best a reply on that person's daily routine, which
     * bge-small-en-v1.5 finds at a cosine of 0.69, over both floors. For a query the probe reads as world knowledge
     * with a probability of 0.8 or more, the curator raises both floors ({@code Memfas.Builder.worldKnowledgeRaise},
     * 0.08 by default), so only a memory that matches it closely is let in. Empty when unknown: the floors are the same
     * for every query.
     */
    default Optional<WorldKnowledgeProbe> worldKnowledgeProbe() {
        return Optional.empty();
    }

    /** Embeds one text. */
    default float[] embed(String text) {
        return embedAll(List.of(text)).get(0);
    }
}
