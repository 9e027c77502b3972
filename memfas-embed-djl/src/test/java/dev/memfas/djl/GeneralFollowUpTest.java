package dev.memfas.djl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A follow-up to a question no note answers gets nothing, as the question itself does, though it is read by a blend of
 * its history and its own words, which with the default model reaches the relevance floors more easily than any one
 * of them.
 */
final class GeneralFollowUpTest extends TeamNotesFixture {
    private static final String BILLING = "We deploy the billing service on Tuesdays after the Flyway migrations ran.";

    private static List<String> ids(String query, String... history) {
        return curator.getContext(ContextRequest.builder(query).sessionId("s").recentHistory(List.of(history))
                .recordAccess(false).build()).memoryIds();
    }

    @Test
    void aFollowUpToGeneralQuestions_getsNothing_asTheQuestionsDo() {
        assertThat(ids("How many minutes are in a day?")).isEmpty();
        assertThat(ids("What language is spoken in Brazil?")).isEmpty();

        assertThat(ids("Tell me more about that.", "How many minutes are in a day?")).isEmpty();
        assertThat(ids("Tell me more about that.", "Who wrote Pride and Prejudice?",
                "What language is spoken in Brazil?")).isEmpty();
    }

    @Test
    void aFollowUpToANote_findsIt_whateverWasAskedBefore() {
        assertThat(ids("Tell me more about that.", "How many minutes are in a day?",
                "When do we deploy the billing service?")).startsWith(idOf(BILLING));
    }

    @Test
    void aFollowUpToAReplyThatSaysLittle_findsWhatTheQuestionBeforeItAsked() {
        assertThat(ids("Let me check.")).isEmpty();

        assertThat(ids("And on which day?", "When do we deploy the billing service?", "Let me check."))
                .startsWith(idOf(BILLING));
    }
}
