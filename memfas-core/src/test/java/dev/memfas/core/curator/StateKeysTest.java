package dev.memfas.core.curator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.State;
import dev.memfas.core.Memfas;
import dev.memfas.core.MutableClock;
import dev.memfas.core.text.JsonSyntax;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** An agent's key-value state through the curator: JSON values, the curator's clock, its own keys kept apart. */
final class StateKeysTest {
    private static final Instant T0 = Instant.parse("2026-11-24T09:00:00Z");
    private final MutableClock clock = new MutableClock(T0);
    private final ContextCurator curator = Memfas.newBuilder().clock(clock).build();

    @AfterEach
    void close() {
        curator.close();
    }

    @Test
    void saveLoadListSearchDeleteClear_onTheCuratorsClock() {
        curator.state().save("default", "plan", "{\"step\": 2, \"of\": [\"build\", \"test\", \"ship\"]}");
        clock.advance(Duration.ofMinutes(5));
        curator.state().save("default", "session/1/cursor", "42");
        curator.state().save("default", "session/2/cursor", "\"end\"");
        curator.state().save("other", "plan", "null");

        assertThat(curator.state().load("default", "plan"))
                .hasValue("{\"step\": 2, \"of\": [\"build\", \"test\", \"ship\"]}");
        assertThat(curator.state().load("default", "missing")).isEmpty();
        assertThat(curator.state().keys("default", true)).containsExactly(
                new State.Entry("plan", T0, 44, "{\"step\": 2, \"of\": [\"build\", \"test\", \"ship\"]}"),
                new State.Entry("session/1/cursor", T0.plusSeconds(300), 2, "42"),
                new State.Entry("session/2/cursor", T0.plusSeconds(300), 5, "\"end\""));
        assertThat(curator.state().search("default", "session/*", 1)).isEqualTo(Map.of("session/1/cursor", "42"));
        assertThat(curator.state().delete("default", "plan")).isTrue();
        assertThat(curator.state().delete("default", "plan")).isFalse();
        assertThat(curator.state().clear("default")).isEqualTo(2);
        assertThat(curator.state().keys("default", false)).isEmpty();
        assertThat(curator.state().load("other", "plan")).hasValue("null");
    }

    @Test
    void theCuratorsOwnKeys_areNeitherShownNorWritableNorCleared() {
        curator.upkeep().orient("default", ZoneOffset.UTC); // records when the namespace was last seen, under memfas.*
        curator.state().save("default", "mine", "true");

        assertThat(curator.state().keys("default", false)).extracting(State.Entry::key).containsExactly("mine");
        assertThat(curator.state().search("default", "*", 10)).containsOnlyKeys("mine");
        assertThatThrownBy(() -> curator.state().save("default", "memfas.last_seen", "\"x\""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("state keys beginning with 'memfas.' are memfas's own: 'memfas.last_seen'");
        assertThat(curator.state().clear("default")).isEqualTo(1);
        clock.advance(Duration.ofHours(2));
        assertThat(curator.upkeep().orient("default", ZoneOffset.UTC).lastSeen()).isEqualTo(T0);
    }

    @Test
    void aValueThatIsNotJson_isRefused_sayingWhereAndWhat() {
        assertThatThrownBy(() -> curator.state().save("default", "plan", "{\"step\": 2 \"next\": 3}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("state value of 'plan' is not JSON: expected ',' or '}' at char 11 near '{\"step\": 2 \"next\": 3}'");
        assertThatThrownBy(() -> curator.state().save("default", "plan", "plain words"))
                .hasMessageContaining("expected a value at char 0");
        assertThatThrownBy(() -> curator.state().save("default", "plan", "[1, 2] trailing"))
                .hasMessageContaining("expected the end at char 7");
        assertThatThrownBy(() -> curator.state().save("default", "plan", "[".repeat(300) + "]".repeat(300)))
                .hasMessageContaining("nested deeper than 256");
        assertThatThrownBy(() -> curator.state().search("default", "*", 0))
                .hasMessage("state search limit must be in [1, 1000]: 0");
        assertThat(curator.state().load("default", "plan")).isEmpty();
    }

    @Test
    void jsonSyntax_acceptsEveryKindOfValue() {
        for (String ok : new String[] {"0", "-1.5e+3", "\"\\u00e9\\n\"", "true", "false", "null", "[]", "{}",
            " {\"a\": [1, {\"b\": null}], \"c\": \"d\"} "}) {
            JsonSyntax.check(ok, "v");
        }
        for (String bad : new String[] {"", "01", "1.", "\"open", "{\"a\" 1}", "[1,]", "\"tab\there\"", "nul",
            "'single'"}) {
            assertThatThrownBy(() -> JsonSyntax.check(bad, "v")).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("v is not JSON: expected");
        }
    }
}
