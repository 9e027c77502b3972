package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scopes from the command line: a context for a project, a language and a task. */
final class CliScopesTest {
    @TempDir
    Path dir;

    private CliRun memfas(String... args) {
        return CliRun.of(dir.resolve("m.db"), args);
    }

    @Test
    void context_forAProjectAndLanguage_leavesOutTheOthers_andABadNameIsRefused() {
        memfas("remember", "Before every commit run the formatter.", "--id", "u1");
        memfas("remember", "Before every commit run go vet.", "--id", "go1", "--scope", "language:go");
        memfas("remember", "Before every commit run mypy.", "--id", "py1", "--scope", "language:python");
        memfas("remember", "Before every commit rebuild the hydra index.", "--id", "h1", "--scope", "project:hydra");

        CliRun r = memfas("context", "what to run before every commit", "--project", "hydra", "--language", "Go",
                "--task", "coding", "--json");

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("\"id\":\"u1\"").contains("\"id\":\"go1\"").contains("\"id\":\"h1\"")
                .doesNotContain("\"id\":\"py1\"");
        assertThat(memfas("context", "what to run before every commit", "--project", "hydra", "--group-by-scope")
                .out()).contains("<scope name=\"project:hydra\">");
        assertThat(memfas("context", "what to run before every commit", "--level", "minimal", "--json").out())
                .contains("\"token_budget\":300");
        assertThat(memfas("context", "what to run before every commit", "--tier", "standard", "--json").out())
                .contains("\"token_budget\":4000");
        assertThat(memfas("context", "x", "--level", "huge").err()).contains("unknown level 'huge'");
        CliRun bad = memfas("context", "anything", "--language", "c\u0007");
        assertThat(bad.exit()).isEqualTo(Main.INPUT);
        assertThat(bad.err()).contains("language must not contain control characters");
    }

    @Test
    void context_detect_takesTheProjectAndLanguageOfTheWorkingDirectory() {
        ContextDetector.Detected here = ContextDetector.detect(Path.of("").toAbsolutePath());
        assertThat(here.project()).isNotNull();
        assertThat(here.language()).isEqualTo("java");
        memfas("remember", "Before every commit rebuild this project's index.", "--id", "mine", "--scope",
                "project:" + here.project());
        memfas("remember", "Before every commit rebuild the other index.", "--id", "theirs", "--scope",
                "project:not-" + here.project());
        memfas("remember", "Before every commit run mypy.", "--id", "py", "--scope", "language:python");

        CliRun detected = memfas("context", "what to run before every commit", "--detect", "--json");
        CliRun overridden = memfas("context", "what to run before every commit", "--detect", "--project",
                "not-" + here.project(), "--json");

        assertThat(detected.exit()).as(detected.err()).isZero();
        assertThat(detected.out()).contains("\"id\":\"mine\"").doesNotContain("\"id\":\"theirs\"")
                .doesNotContain("\"id\":\"py\"");
        assertThat(overridden.out()).contains("\"id\":\"theirs\"").doesNotContain("\"id\":\"mine\"");
    }
}
