package dev.memfas.djl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A follow-up leans on the latest message of its history, however long the messages before it are: with the default
 * model, whose window is 512 tokens, a history of a long reply and then a short question is read with the question.
 */
final class LongHistoryTest {
    private static final Instant AT = Instant.parse("2026-03-04T09:00:00Z");
    private static final String[] OFFICE = {
        "The coffee machine on the third floor is descaled every Friday; use the one by the kitchen meanwhile.",
        "Guest wifi password is on the whiteboard in reception and changes every month.",
        "Parking permits are renewed every January at the front desk.",
        "Printer on the second floor jams with thick paper; use the one in the library.",
        "Bike storage is in the basement; the door code is with facilities.",
        "Plants in the office are watered on Mondays by whoever arrives first.",
        "Lunch on Wednesdays is catered; say in the channel if you have allergies.",
        "The office is closed between Christmas and New Year."};
    private static DjlEmbedder embedder;
    private static ContextCurator curator;

    @BeforeAll
    static void remember() {
        embedder = DjlEmbedder.defaultModel();
        curator = Memfas.newBuilder().embedder(embedder).build();
        List<Memory> notes = new ArrayList<>();
        for (int i = 0; i < OFFICE.length; i++) {
            notes.add(note("office-" + i, OFFICE[i]));
        }
        notes.add(note("billing-deploy", "We deploy the billing service on Tuesdays after the Flyway migrations ran."));
        notes.add(note("search-index", "The search service indexes the catalogue every hour from the products"
                + " database."));
        notes.add(note("load-tests", "Load tests run against staging every Sunday night."));
        curator.rememberAll(notes);
    }

    @AfterAll
    static void close() {
        curator.close();
        embedder.close();
    }

    private static Memory note(String id, String text) {
        return Memory.builder(text).id(id).createdAt(AT).build();
    }

    @Test
    void aFollowUp_isReadWithTheLatestMessage_behindALongReplyPastTheModelsWindow() {
        // About 700 tokens: the office's notes told over and over, as a long reply might.
        String reply = "Here is what the office notes say. " + (String.join(" ", OFFICE) + " ").repeat(4);
        assertThat(embedder.maxSequenceLength()).isLessThan(reply.length() / 4);

        List<String> history = List.of(reply, "When do we deploy the billing service?");
        List<String> ids = curator.getContext(ContextRequest.builder("And on which day?").sessionId("s")
                .recentHistory(history).recordAccess(false).build()).memoryIds();

        assertThat(ids).startsWith("billing-deploy");
    }
}
