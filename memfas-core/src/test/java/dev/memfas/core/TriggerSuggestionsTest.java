package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.Trigger;
import dev.memfas.Triggers;
import dev.memfas.core.store.InMemoryMemoryStore;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Trigger suggestions learned from helpful feedback: what counts, what does not, and that nothing is applied. */
final class TriggerSuggestionsTest {
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final ContextCurator curator = Memfas.newBuilder().store(store)
            .clock(new MutableClock(Instant.parse("2026-11-24T10:00:00Z"))).build();

    @AfterEach
    void close() {
        curator.close();
    }

    private void helpfulTurn(String session, String query, String helpfulId) {
        List<String> included = curator.getContext(query, session).memoryIds();
        assertThat(included).contains(helpfulId);
        curator.upkeep().reportUsage(session, List.of(helpfulId), true);
    }

    @Test
    void aWordInThreeHelpfulQueries_isSuggested_withItsMemory_andNotAdded() {
        curator.rememberAll(List.of(
                Memory.builder("Flyway migrations run before each billing deploy.").id("flyway").build(),
                Memory.builder("Lunch is at noon.").id("lunch").build()));

        helpfulTurn("s1", "how do billing migrations run?", "flyway");
        helpfulTurn("s2", "billing deploy order of migrations", "flyway");
        assertThat(curator.triggers().suggest("default")).isEmpty();
        helpfulTurn("s3", "anything before the billing deploy? migrations?", "flyway");

        List<Triggers.Suggestion> suggestions = curator.triggers().suggest("default");

        assertThat(suggestions).extracting(Triggers.Suggestion::keyword).startsWith("billing", "migrations")
                .doesNotContain("the", "how", "lunch");
        assertThat(suggestions.get(0).queries()).isEqualTo(3);
        assertThat(suggestions.get(0).memoryIds()).containsExactly("flyway");
        assertThat(store.triggers("default")).isEmpty();

        curator.triggers().add(suggestions.get(0).toTrigger("default"));
        assertThat(curator.triggers().suggest("default")).extracting(Triggers.Suggestion::keyword)
                .doesNotContain("billing");
        assertThat(store.triggers("default")).extracting(Trigger::keyword).containsExactly("billing");
    }

    @Test
    void unhelpfulReports_repeatedReports_andOtherNamespaces_teachNothing() {
        curator.rememberAll(List.of(Memory.builder("Kafka retention is seven days.").id("kafka").build(),
                Memory.builder("Kafka retention is seven days.").id("kafka").namespace("other").build()));

        for (int i = 0; i < 3; i++) {
            curator.getContext("kafka retention?", "s" + i);
            curator.upkeep().reportUsage("s" + i, List.of("kafka"), false);
        }
        curator.getContext("kafka retention?", "same");
        for (int i = 0; i < 3; i++) {
            curator.upkeep().reportUsage("same", List.of("kafka"), true);
        }

        assertThat(curator.triggers().suggest("default")).isEmpty();
        assertThat(curator.triggers().suggest("other")).isEmpty();
    }

    @Test
    void redactedQueries_areNotKept_soNothingIsLearned() {
        try (ContextCurator redacted = Memfas.newBuilder().redactQueries(true).build()) {
            redacted.remember(Memory.builder("Kafka retention is seven days.").id("kafka").build());
            for (int i = 0; i < 4; i++) {
                redacted.getContext("kafka retention?", "s" + i);
                redacted.upkeep().reportUsage("s" + i, List.of("kafka"), true);
            }
            assertThat(redacted.triggers().suggest("default")).isEmpty();
        }
    }
}
