package dev.memfas.djl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextResponse;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The session topic with the default model and its calibrated threshold: follow-ups stay, a new subject shifts. */
final class TopicShiftTest {
    private static DjlEmbedder embedder;
    private static ContextCurator curator;

    @BeforeAll
    static void load() {
        embedder = DjlEmbedder.defaultModel();
        curator = Memfas.newBuilder().embedder(embedder).build();
        curator.rememberAll(List.of(
                Memory.builder("We deploy the billing service on Tuesdays after the Flyway migrations ran.").build(),
                Memory.builder("Rollbacks use the previous image tag; the on-call engineer approves them.").build(),
                Memory.builder("Banana bread: three ripe bananas, 180 C for an hour.").build()));
    }

    @AfterAll
    static void close() {
        curator.close();
        embedder.close();
    }

    private static List<Boolean> shifts(String session, String... turns) {
        List<Boolean> out = new ArrayList<>();
        for (String turn : turns) {
            ContextResponse r = curator.getContext(turn, session);
            out.add(r.topicShifted());
        }
        return out;
    }

    @Test
    void theDefaultModel_hasItsOwnCalibratedThreshold() {
        assertThat(embedder.topicShiftThreshold()).hasValue(0.52);
        assertThat(DjlEmbedder.BuiltInModel.ALL_MINILM_L6_V2.topicShiftThreshold()).isEqualTo(0.11);
    }

    @Test
    void followUps_stayOnTopic_andANewSubject_shifts() {
        assertThat(shifts("deploys", "How do we deploy the billing service?", "What runs before the deploy?",
                "Who approves production deploys?", "What's a good recipe for banana bread?",
                "Can I use less sugar in it?"))
                .containsExactly(false, false, false, true, false);
    }

    @Test
    void aChangeOfSubject_shiftsInAnotherConversationToo() {
        assertThat(shifts("code", "Fix the NullPointerException in the invoice parser.",
                "The stack trace points at line 42 of InvoiceParser.", "When is my dentist appointment?"))
                .containsExactly(false, false, true);
    }
}
