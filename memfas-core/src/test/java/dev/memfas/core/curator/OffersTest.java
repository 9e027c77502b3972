package dev.memfas.core.curator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.State;
import dev.memfas.core.Memfas;
import dev.memfas.core.MutableClock;
import dev.memfas.policy.SavePolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Offering a tool's result for saving: the rules, a policy and its fallbacks, and keys never overwritten. */
final class OffersTest {
    private static final String PROFILE = "{\"name\": \"Ana\", \"team\": \"billing\", \"prefers\": \"short answers\"}";

    private static ContextCurator curator(SavePolicy policy, Duration timeout) {
        Memfas.Builder b = Memfas.newBuilder().clock(new MutableClock(Instant.parse("2026-11-24T09:00:00Z")));
        if (policy != null) {
            b.savePolicy(policy, timeout);
        }
        return b.build();
    }

    @Test
    void theRules_keepAToolsLastingResult_andSkipUtilitiesQueriesErrorsAndTrivia() {
        try (ContextCurator c = curator(null, null)) {
            State.SaveOutcome profile = c.state().offer("default", "getUserProfile", PROFILE, "greet the user");

            assertThat(profile).isEqualTo(new State.SaveOutcome(true, "tool/getUserProfile",
                    "a tool's result worth keeping across sessions", "rules"));
            assertThat(c.state().load("default", "tool/getUserProfile")).hasValue("{\"tool\": \"getUserProfile\", "
                    + "\"goal\": \"greet the user\", \"reason\": \"a tool's result worth keeping across sessions\", "
                    + "\"result\": " + PROFILE + "}");
            assertThat(c.state().offer("default", "getCurrentDate", "\"2026-11-24T09:00:00Z and more\"", "").reason())
                    .isEqualTo("a utility tool's result");
            assertThat(c.state().offer("default", "search_issues", PROFILE, "").reason())
                    .isEqualTo("a one-off query's result");
            assertThat(c.state().offer("default", "getUserProfile", "{\"error\": \"not found\", \"code\": 404}", "")
                    .reason())
                    .isEqualTo("an error");
            assertThat(c.state().offer("default", "getTeam", "\"ok\"", "").reason()).startsWith("under 20 characters");
            assertThat(c.state().keys("default", false)).hasSize(1);
        }
    }

    @Test
    void aKeyIsNeverOverwritten_aNewValueIsAVersion_andTheSameValueIsNotSavedAgain() {
        try (ContextCurator c = curator(null, null)) {
            c.state().offer("default", "getUserProfile", PROFILE, "greet");
            State.SaveOutcome changed = c.state()
                    .offer("default", "getUserProfile", PROFILE.replace("short", "long"), "greet");
            State.SaveOutcome same = c.state().offer("default", "getUserProfile", PROFILE, "greet");

            assertThat(changed.key()).isEqualTo("tool/getUserProfile.v2");
            assertThat(changed.saved()).isTrue();
            assertThat(same).isEqualTo(new State.SaveOutcome(false, "tool/getUserProfile",
                    "already kept under tool/getUserProfile", "rules"));
            assertThat(c.state().load("default", "tool/getUserProfile").orElseThrow()).contains("short answers");
        }
    }

    @Test
    void aPolicyDecides_andOneThatFailsIsLateOrNamesABadKey_isSetAsideForTheRules() {
        SavePolicy keepAll = offer -> SavePolicy.Decision.save("people/" + offer.toolName(), "people are lasting");
        try (ContextCurator c = curator(keepAll, Duration.ofSeconds(5))) {
            assertThat(c.state().offer("default", "getCurrentDate", "\"2026-11-24T09:00:00Z and more\"", ""))
                    .isEqualTo(new State.SaveOutcome(true, "people/getCurrentDate", "people are lasting", "policy"));
        }
        CountDownLatch never = new CountDownLatch(1);
        SavePolicy failing = offer -> {
            throw new IllegalStateException("model down");
        };
        SavePolicy late = offer -> {
            never.await();
            return SavePolicy.Decision.skip("too late");
        };
        SavePolicy reserved = offer -> SavePolicy.Decision.save("memfas.last_seen", "mine now");
        for (SavePolicy policy : new SavePolicy[] {failing, late, reserved}) {
            try (ContextCurator c = curator(policy, Duration.ofMillis(100))) {
                State.SaveOutcome o = c.state().offer("default", "getUserProfile", PROFILE, "greet");
                assertThat(o.decidedBy()).isEqualTo("rules");
                assertThat(o.key()).isEqualTo("tool/getUserProfile");
            }
        }
        never.countDown();
    }

    @Test
    void aResultThatIsNotJson_isKeptAsAString_andABadToolNameIsRefused() {
        try (ContextCurator c = curator(null, null)) {
            c.state().offer("default", "readNotes", "Ana prefers \"short\" answers\nand no emoji.", null);

            assertThat(c.state().load("default", "tool/readNotes"))
                    .hasValue("{\"tool\": \"readNotes\", \"goal\": \"\", "
                    + "\"reason\": \"a tool's result worth keeping across sessions\", "
                    + "\"result\": \"Ana prefers \\\"short\\\" answers\\nand no emoji.\"}");
            assertThatThrownBy(() -> c.state().offer("default", " ", "x", ""))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("a tool name must be 1 to 200 chars and not blank: ' '");
        }
    }
}
