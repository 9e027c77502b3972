package dev.memfas.core.turn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.core.text.TextAnalyzer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class SessionStateTest {
    @Test
    void label_takesTheHeaviestTerms_longerFirstOnTies_commaSeparated_noPlainNumbers() {
        Map<String, Double> terms = new LinkedHashMap<>();
        for (String t : TextAnalyzer.words("How long do we keep usage events in Kafka now? 2026")) {
            terms.put(t, 1.0);
        }
        assertThat(SessionState.label(terms)).isEqualTo("events, usage, kafka");

        terms.put("retention", 0.5);
        terms.put("lag", 2.0);
        assertThat(SessionState.label(terms)).isEqualTo("lag, events, usage");
        assertThat(SessionState.label(Map.of())).isEmpty();
    }
}
