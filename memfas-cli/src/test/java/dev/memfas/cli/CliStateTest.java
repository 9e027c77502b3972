package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Key-value state from the command line, per namespace. */
final class CliStateTest {
    @TempDir
    Path dir;

    private CliRun memfas(String... args) {
        return CliRun.of(dir.resolve("m.db"), args);
    }

    @Test
    void saveLoadListSearchDeleteClear() {
        assertThat(memfas("state", "save", "plan", "{\"step\": 2}").out()).isEqualTo("saved plan\n");
        memfas("state", "save", "session/1/cursor", "42");
        memfas("state", "save", "plan", "\"acme's plan\"", "--namespace", "acme");

        assertThat(memfas("state", "load", "plan").out()).isEqualTo("{\"step\": 2}\n");
        assertThat(memfas("state", "load", "plan", "--namespace", "acme").out()).isEqualTo("\"acme's plan\"\n");
        assertThat(memfas("state", "list", "--preview").out()).contains("plan").contains("{\"step\": 2}")
                .contains("session/1/cursor");
        assertThat(memfas("state", "list", "--json").out()).contains("\"key\":\"plan\"").contains("\"size\":11");
        assertThat(memfas("state", "search", "session/*").out()).isEqualTo("session/1/cursor\t42\n");
        memfas("remember", "The session cursor marks the next step.");
        assertThat(memfas("context", "where is the session cursor", "--state", "session/*").out())
                .contains("<state key=\"session/1/cursor\">42</state>");
        CliRun bad = memfas("state", "save", "plan", "not json");
        assertThat(bad.exit()).isEqualTo(Main.INPUT);
        assertThat(bad.err()).contains("state value of 'plan' is not JSON: expected a value at char 0");
        assertThat(memfas("state", "delete", "plan").out()).isEqualTo("deleted plan\n");
        assertThat(memfas("state", "load", "plan").exit()).isEqualTo(Main.INPUT);
        assertThat(memfas("state", "clear").out()).isEqualTo("deleted 1 key\n");
        assertThat(memfas("state", "load", "plan", "--namespace", "acme").exit()).isZero();
    }
}
