package dev.memfas.djl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A follow-up leans on the latest message of its history, however long the messages before it are: with the default
 * model, whose window is 512 tokens, a history of a long reply and then a short question is read with the question.
 */
final class LongHistoryTest extends TeamNotesFixture {
    private static final String BILLING = "We deploy the billing service on Tuesdays after the Flyway migrations ran.";

    @Test
    void aFollowUp_isReadWithTheLatestMessage_behindALongReplyPastTheModelsWindow() {
        // About 700 tokens on something no note is about, as a long reply might be.
        String reply = ("A good commit message starts with a short summary line in the imperative mood. After a blank"
                + " line, its body explains why the change was made, not what the diff already shows. Wrap the body at"
                + " seventy-two characters and name the issue it closes at the end. ").repeat(12);
        assertThat(embedder.maxSequenceLength()).isLessThan(reply.length() / 5);

        List<String> history = List.of(reply, "When do we deploy the billing service?");
        List<String> ids = curator.getContext(ContextRequest.builder("And on which day?").sessionId("s")
                .recentHistory(history).recordAccess(false).build()).memoryIds();

        assertThat(ids).startsWith(idOf(BILLING));
    }
}
