package dev.memfas.core.turn;

import dev.memfas.core.text.TextAnalyzer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Moves the session topic towards each turn ({@link SessionState#advance}): by the turn's vector with an embedder,
 * by its words without one. A turn without a session, and a search, get the topic of a fresh session: this turn's
 * alone. Thread-safe.
 */
public final class TopicTracker {
    private final double shiftThreshold;

    public TopicTracker(double shiftThreshold) {
        this.shiftThreshold = shiftThreshold;
    }

    public SessionState.TopicUpdate advance(Turn turn, QueryVectors vectors) {
        Map<String, Double> terms = termWeights(turn);
        List<String> phrases = new ArrayList<>();
        for (String history : turn.request().recentHistory()) {
            phrases.addAll(TopicLabel.phrases(history));
        }
        phrases.addAll(TopicLabel.phrases(turn.request().query()));
        if (turn.session() != null) {
            return turn.session().advance(vectors.turn(), terms, phrases, shiftThreshold);
        }
        // What a fresh session's first turn gives, without the session: the turn's own vector and terms.
        return new SessionState.TopicUpdate(vectors.turn(), terms, TopicLabel.of(terms, phrases), false, 1, 1,
                List.of());
    }

    /** The analyzed words of the query at weight 1, and of the recent history at {@link QueryEmbedder#HISTORY_WEIGHT}. */
    private static Map<String, Double> termWeights(Turn turn) {
        Map<String, Double> terms = new LinkedHashMap<>();
        for (String t : TextAnalyzer.words(turn.request().query())) {
            terms.put(t, 1.0);
        }
        for (String history : turn.request().recentHistory()) {
            for (String t : TextAnalyzer.words(history)) {
                terms.putIfAbsent(t, (double) QueryEmbedder.HISTORY_WEIGHT);
            }
        }
        return terms;
    }
}
