package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Namespaces as tenants from the command line: nothing a command does with --namespace reaches another. */
final class CliTenantsTest {
    @TempDir
    Path dir;

    private CliRun memfas(String... args) {
        return CliRun.of(dir.resolve("m.db"), args);
    }

    @Test
    void everyCommand_staysInItsNamespace() throws Exception {
        assertThat(memfas("remember", "Acme deploys on Mondays.", "--id", "a1", "--namespace", "acme").exit())
                .isZero();
        assertThat(memfas("remember", "Globex deploys on Fridays.", "--id", "g1", "--namespace", "globex").exit())
                .isZero();
        memfas("triggers", "add", "deploy", "Acme: check the canary.", "--namespace", "acme");

        assertThat(memfas("context", "when do we deploy", "--namespace", "acme").out()).contains("Mondays")
                .contains("check the canary").doesNotContain("Fridays");
        assertThat(memfas("context", "when do we deploy", "--namespace", "globex").out()).contains("Fridays")
                .doesNotContain("Mondays").doesNotContain("canary");
        assertThat(memfas("recall", "deploys", "--namespace", "globex").out()).contains("g1").doesNotContain("a1");
        assertThat(memfas("list", "--namespace", "acme").out()).contains("a1").doesNotContain("g1");
        assertThat(memfas("show", "g1", "--namespace", "acme").exit()).isEqualTo(Main.INPUT);
        assertThat(memfas("forget", "g1", "--namespace", "acme").exit()).isEqualTo(Main.INPUT);
        assertThat(memfas("show", "g1", "--namespace", "globex").exit()).isZero();
        assertThat(memfas("triggers", "list", "--namespace", "globex").out()).contains("no triggers");
        assertThat(memfas("context", "when do we deploy").out()).doesNotContain("Mondays").doesNotContain("Fridays");

        String stats = memfas("stats", "--json", "--namespace", "acme").out();
        assertThat(stats).contains("\"memories\":1").contains("\"acme\"").doesNotContain("globex");
        assertThat(memfas("stats").out()).contains("acme: 1 memories").contains("globex: 1 memories");

        assertThat(memfas("telemetry", "show", "--namespace", "globex").out()).contains("when do we deploy")
                .hasLineCount(1);
        // Without --namespace the command works in 'default', which asked nothing: no tenant's queries show.
        assertThat(memfas("telemetry", "show").out()).doesNotContain("when do we deploy");
        assertThat(memfas("telemetry", "summary").out()).doesNotContain("when do we deploy");
        Path csv = dir.resolve("turns.csv");
        memfas("telemetry", "export", "--format", "jsonl", "--output", csv.toString());
        assertThat(Files.readString(csv)).doesNotContain("when do we deploy");
        Path page = dir.resolve("report.html");
        memfas("report", "--out", page.toString());
        assertThat(Files.readString(page)).doesNotContain("when do we deploy");
        // The operator reads them all only by saying so.
        assertThat(memfas("telemetry", "show", "--all-namespaces").out()).contains("when do we deploy")
                .hasLineCount(2);
        Path exported = dir.resolve("acme.jsonl");
        memfas("export", "--output", exported.toString(), "--namespace", "acme");
        assertThat(Files.readString(exported)).contains("a1").doesNotContain("g1");
        assertThat(memfas("import", exported.toString(), "--namespace", "initech").exit()).isZero();
        assertThat(memfas("show", "a1", "--namespace", "initech").out()).contains("Acme deploys on Mondays.");
        assertThat(memfas("show", "a1", "--namespace", "acme").exit()).isZero();
        assertThat(memfas("list", "--namespace", "bad\u0007").err()).contains("namespace must not contain control");
    }
}
