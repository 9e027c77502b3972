package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.ContextTier;
import dev.memfas.Memory;
import dev.memfas.core.envelope.ContextEnvelope;
import dev.memfas.core.text.JTokkitTokenizer;
import dev.memfas.policy.RelevanceJudge;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** State through the budget: chosen by a judge or by words, rendered in its own section, counted, bounded. */
final class StateInContextTest {
    private static final Instant NOW = Instant.parse("2026-11-24T09:00:00Z");
    private static final JTokkitTokenizer TOKENS = JTokkitTokenizer.cl100k();

    private static ContextCurator curator(RelevanceJudge judge, Duration timeout) {
        Memfas.Builder b = Memfas.newBuilder().clock(new MutableClock(NOW));
        if (judge != null) {
            b.relevanceJudge(judge, timeout);
        }
        ContextCurator c = b.build();
        c.remember(Memory.builder("Deploys need a green build on main.").id("m1").build());
        c.state().save("default", "plan", "{\"steps\": [\"migrate\", \"deploy\"], \"at\": 1}");
        c.state().save("default", "notes/deploy-window", "\"deploy between 10:00 and 16:00\"");
        c.state().save("default", "notes/lunch-order", "\"two pizzas, one salad\"");
        return c;
    }

    private static ContextResponse ask(ContextCurator c, String query, String... state) {
        return c.getContext(ContextRequest.builder(query).sessionId("s").state(state).build());
    }

    @Test
    void aKeyNamed_isIncluded_andAGlobsKeys_areChosenByTheirWords() {
        try (ContextCurator c = curator(null, null)) {
            ContextResponse r = ask(c, "when can we deploy today?", "plan", "notes/*");

            assertThat(r.stateKeys()).containsExactly("plan", "notes/deploy-window");
            assertThat(r.context()).startsWith("<memory_context today=\"2026-11-24\">\n<state_context>\n"
                    + "<state key=\"plan\">{\"steps\": [\"migrate\", \"deploy\"], \"at\": 1}</state>\n")
                    .contains("deploy between 10:00 and 16:00").doesNotContain("pizzas")
                    .contains("<memory id=\"m1\"");
            assertThat(r.tokensUsed()).isEqualTo(TOKENS.count(r.context()));
            assertThat(ask(c, "when can we deploy today?").stateKeys()).isEmpty();
        }
    }

    @Test
    void aJudge_choosesAmongAGlobsKeys_andIsNeverAskedWithoutState() {
        AtomicInteger asked = new AtomicInteger();
        RelevanceJudge lunchOnly = (goal, candidates) -> {
            asked.incrementAndGet();
            assertThat(candidates).extracting(RelevanceJudge.Candidate::id)
                    .containsExactly("notes/deploy-window", "notes/lunch-order");
            return List.of("notes/lunch-order");
        };
        try (ContextCurator c = curator(lunchOnly, Duration.ofSeconds(5))) {
            assertThat(ask(c, "when can we deploy today?", "notes/*").stateKeys())
                    .containsExactly("notes/lunch-order");
            ask(c, "when can we deploy today?");
            assertThat(asked).hasValue(1);
        }
    }

    @Test
    void aJudgeThatFails_isLate_orNamesWhatItWasNotShown_isSetAside_forChoosingByWords() {
        CountDownLatch never = new CountDownLatch(1);
        RelevanceJudge failing = (goal, candidates) -> {
            throw new IllegalStateException("model down");
        };
        RelevanceJudge late = (goal, candidates) -> {
            never.await();
            return List.of("notes/lunch-order");
        };
        RelevanceJudge inventing = (goal, candidates) -> List.of("notes/lunch-order", "secrets/token");
        for (RelevanceJudge judge : List.of(failing, late, inventing)) {
            try (ContextCurator c = curator(judge, Duration.ofMillis(100))) {
                assertThat(ask(c, "when can we deploy today?", "notes/*").stateKeys())
                        .containsExactly("notes/deploy-window");
            }
        }
        never.countDown();
    }

    @Test
    void state_staysWithinItsShare_cutIfNeedBe_andTheTiersShareIsItsState() {
        try (ContextCurator c = curator(null, null)) {
            c.state().save("default", "log", "\"" + "deploy step done. ".repeat(400) + "\"");

            ContextResponse r = c.getContext(ContextRequest.builder("deploy").sessionId("s").tokenBudget(400)
                    .state("log").build());
            ContextResponse tier = c.getContext(ContextRequest.builder("deploy").sessionId("s")
                    .tier(ContextTier.MINIMAL).state("log").build());

            assertThat(r.stateKeys()).containsExactly("log");
            assertThat(r.context()).contains(ContextEnvelope.TRUNCATION_MARKER + "</state>");
            int stateTokens = TOKENS.count(r.context().substring(r.context().indexOf("<state_context>"),
                    r.context().indexOf("</state_context>") + "</state_context>\n".length()));
            assertThat(stateTokens).isLessThanOrEqualTo(100);
            assertThat(r.tokensUsed()).isEqualTo(TOKENS.count(r.context())).isLessThanOrEqualTo(400);
            assertThat(tier.tokensUsed()).isLessThanOrEqualTo(2000);
            assertThat(TOKENS.count(tier.context())).isGreaterThan(1000);
        }
    }

    @Test
    void theCuratorsOwnKeys_areNeverShown_evenWhenAsked() {
        try (ContextCurator c = curator(null, null)) {
            c.upkeep().orient("default", java.time.ZoneOffset.UTC);

            assertThat(ask(c, "memfas last seen", "memfas.last_seen", "memfas.*", "*").stateKeys())
                    .doesNotContain("memfas.last_seen");
        }
    }
}
