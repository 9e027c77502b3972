package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ScopeBudgets;
import dev.memfas.policy.SupersessionPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The configuration keys of memory over time: update detection, the query's time window, working memory. */
final class CliConfigLifecycleTest {
    @TempDir
    Path dir;

    private CliConfig load(String yaml) throws Exception {
        return CliConfig.load(Files.writeString(dir.resolve("memfas.yaml"), yaml));
    }

    @Test
    void theKeys_setTheCuratorsPolicies() throws Exception {
        CliConfig c = load("""
                supersession: {mode: suggest, similarity: 0.92}
                time_window_weight: 0
                working_memory: {ttl: 30m, limit: 50}
                scope_budgets: {universal: 700, language: 500, project: 300}
                """);

        assertThat(c.supersession).isEqualTo(SupersessionPolicy.suggest(0.92));
        assertThat(c.timeWindowWeight).isZero();
        assertThat(c.workingMemoryTtl).isEqualTo(Duration.ofMinutes(30));
        assertThat(c.workingMemoryLimit).isEqualTo(50);
        assertThat(c.scopeBudgets).isEqualTo(ScopeBudgets.CERBERUS);
        assertThat(load("scope_budgets: {project: 1}").scopeBudgets).isEqualTo(new ScopeBudgets(0, 0, 1));
        assertThat(load("supersession: {mode: apply}").supersession)
                .isEqualTo(SupersessionPolicy.apply(SupersessionPolicy.DEFAULT_SIMILARITY));

        Path config = dir.resolve("memfas.yaml");
        CliRun run = CliRun.of(dir.resolve("m.db"), "remember", "Kafka retention is 7 days.", "--config",
                config.toString());
        assertThat(run.exit()).as(run.err()).isZero();
    }

    @Test
    void theExampleInTheDocs_loads() throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "cli.md"));
        int start = doc.indexOf("```yaml\n", doc.indexOf("## Configuration")) + "```yaml\n".length();
        CliConfig c = load(doc.substring(start, doc.indexOf("```", start)));

        assertThat(c.supersession).isEqualTo(SupersessionPolicy.off());
        assertThat(c.timeWindowWeight).isEqualTo(0.25);
        assertThat(c.workingMemoryTtl).isEqualTo(Duration.ofHours(1));
        assertThat(c.triggers).hasSize(1);
    }

    @Test
    void badValues_nameTheFileAndTheKey() {
        assertThatThrownBy(() -> load("supersession: {mode: always}")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("supersession.mode must be off, suggest or apply: always");
        assertThatThrownBy(() -> load("time_window_weight: 11")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("time_window_weight must be in [0.0, 10.0]: 11.0");
        assertThatThrownBy(() -> load("working_memory: {ttl: soon}")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("working_memory.ttl must be a positive number");
        assertThatThrownBy(() -> load("scope_budgets: {universal: 0}")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scope_budgets: scope budgets must not all be 0");
        assertThatThrownBy(() -> load("scope_budgets: {team: 5}")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("team");
        assertThatThrownBy(() -> load("scope_budgets: {project: -5}")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scope_budgets.project must be in [0, 1000000]: -5");
        assertThatThrownBy(() -> load("supersession: {similarity: 2}")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("supersession.similarity must be in");
    }
}
