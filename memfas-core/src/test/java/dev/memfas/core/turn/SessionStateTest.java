package dev.memfas.core.turn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.core.text.TextAnalyzer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class SessionStateTest {
    private static Map<String, Double> weights(String text) {
        Map<String, Double> terms = new LinkedHashMap<>();
        for (String t : TextAnalyzer.words(text)) {
            terms.merge(t, 1.0, Double::sum);
        }
        return terms;
    }

    @Test
    void phrases_areOneToThreeWordsOfRunsBetweenStopWordsAndPunctuation_noPlainNumbers() {
        assertThat(TopicLabel.phrases("How long do we keep usage events in Kafka now? 2026"))
                .containsExactly("long", "keep usage events", "keep usage", "keep", "usage events", "usage", "events",
                        "kafka");
        assertThat(TopicLabel.phrases("Billing deploys, Kafka lag; the 2 retries"))
                .containsExactly("billing deploys", "billing", "deploys", "kafka lag", "kafka", "lag", "retries");
        assertThat(TopicLabel.phrases("")).isEmpty();
    }

    @Test
    void label_isTheHeaviestPhrase_thenTheHeaviestWithNoWordOfIt_ifHalfAsHeavy() {
        String q = "How long do we keep usage events in Kafka now? 2026";
        assertThat(TopicLabel.of(weights(q), TopicLabel.phrases(q))).isEqualTo("keep usage events, kafka");

        Map<String, Double> terms = weights(q);
        terms.put("kafka", 2.5);
        // kafka alone (2.5) outweighs the three words (3 / 1.73); they are more than half of it and share no word.
        assertThat(TopicLabel.of(terms, TopicLabel.phrases(q))).isEqualTo("kafka, keep usage events");
        terms.put("kafka", 9.0);
        assertThat(TopicLabel.of(terms, TopicLabel.phrases(q))).isEqualTo("kafka");
        assertThat(TopicLabel.of(Map.of(), List.of())).isEmpty();
        assertThat(TopicLabel.of(Map.of(), List.of("gone"))).isEmpty();
    }

    @Test
    void aSessionsLabel_followsThePhrasesItsTurnsRepeat() {
        SessionState s = new SessionState("s", "default", java.time.Instant.EPOCH);
        s.advance(null, weights("kafka retention for the orders topic"),
                TopicLabel.phrases("kafka retention for the orders topic"), 0.5);
        SessionState.TopicUpdate second = s.advance(null, weights("kafka retention on the events cluster"),
                TopicLabel.phrases("kafka retention on the events cluster"), 0.5);
        assertThat(second.label()).startsWith("kafka retention");
        assertThat(second.shifted()).isFalse();
    }
}
