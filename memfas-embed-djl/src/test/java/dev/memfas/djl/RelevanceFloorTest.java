package dev.memfas.djl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.DroppedMemory;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The default model's relevance floor, end to end: a question nothing stored answers gets an empty context. */
final class RelevanceFloorTest {
    private static final Instant AT = Instant.parse("2026-03-04T09:00:00Z");
    private static DjlEmbedder embedder;
    private static ContextCurator curator;

    @BeforeAll
    static void remember() {
        embedder = DjlEmbedder.defaultModel();
        curator = Memfas.newBuilder().embedder(embedder).build();
        curator.rememberAll(List.of(
                note("cat", "I adopted a grey cat called Pepper from the shelter on Saturday."),
                note("run", "Training for the city half marathon in June; long runs on Sundays."),
                note("knee", "The physio told me to rest my knee for two weeks after the long run."),
                note("pottery", "Signed up for a pottery class on Thursday evenings; first project is a blue mug."),
                note("deploy", "We deploy the billing service on Tuesdays after the Flyway migrations ran.")));
    }

    @AfterAll
    static void close() {
        curator.close();
        embedder.close();
    }

    private static Memory note(String id, String text) {
        return Memory.builder(text).id(id).source("notes.md").createdAt(AT).build();
    }

    @Test
    void generalQuestions_getAnEmptyContext() {
        for (String question : List.of("What is the capital of France?", "Who wrote Pride and Prejudice?",
                "How many bones are in the adult human body?")) {
            ContextResponse r = curator.getContext(ContextRequest.builder(question).sessionId("s").explain(true)
                    .build());
            assertThat(r.context()).as(question).isEmpty();
            assertThat(r.dropped()).as(question).isNotEmpty().allSatisfy(d -> assertThat(d.reason())
                    .isEqualTo(DroppedMemory.Reason.BELOW_RELEVANCE_FLOOR));
        }
    }

    @Test
    void questionsAboutWhatIsStored_areAnsweredAsBefore() {
        assertThat(curator.getContext("What is my cat's name?", "s").memoryIds()).startsWith("cat");
        assertThat(curator.getContext("When do we deploy billing?", "s").memoryIds()).startsWith("deploy");
        assertThat(curator.getContext("Why did I stop running?", "s").memoryIds()).contains("knee");
    }

    @Test
    void aMatchJustAboveTheFloorWithNoWordInCommon_comesAlone_withoutPadding() {
        // "pet" is in no note; the cat note scores 0.58 with the default model, between its floors (0.57 and 0.62)
        ContextResponse r = curator.getContext(ContextRequest.builder("Which pet do I have?").sessionId("s")
                .explain(true).build());

        assertThat(r.memoryIds()).containsExactly("cat");
        assertThat(r.dropped()).isNotEmpty().allSatisfy(d -> assertThat(d.reason())
                .isEqualTo(DroppedMemory.Reason.BELOW_RELEVANCE_FLOOR));
        assertThat(curator.getContext(ContextRequest.builder("Which pet do I have?").sessionId("s").fillBudget(true)
                .build()).memoryIds()).containsExactly("cat");
    }

    @Test
    void aMatchAtTheMeaningAloneFloor_isCuratedInFull() {
        // 0.63 with the default model, no word in common: the gate lets every note through, and what ends the context
        // is where the turn's relevance ends, not the gate; a caller who asks for a filled budget gets the others.
        ContextRequest.Builder ask = ContextRequest.builder("What animal lives with me?").sessionId("s");
        ContextResponse r = curator.getContext(ask.explain(true).build());
        ContextResponse filled = curator.getContext(ask.fillBudget(true).build());

        assertThat(r.memoryIds()).startsWith("cat");
        assertThat(r.dropped()).isNotEmpty().noneSatisfy(d -> assertThat(d.reason())
                .isEqualTo(DroppedMemory.Reason.BELOW_RELEVANCE_FLOOR));
        assertThat(filled.memoryIds()).startsWith("cat").hasSize(5);
    }

    @Test
    void aFollowUpThatNamesNothing_isReadWithItsConversation() {
        ContextRequest followUp = ContextRequest.builder("Tell me more about that.").sessionId("f")
                .recentHistory(List.of("What is my cat's name?")).build();

        assertThat(curator.getContext(followUp).memoryIds()).startsWith("cat");
        assertThat(curator.getContext("Tell me more about that.", "g").memoryIds()).doesNotContain("cat");
    }
}
