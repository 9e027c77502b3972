package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.Memory;
import dev.memfas.Scope;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Layers from the command line: routing on remember, promote, and the layer of each explained item. */
final class CliLayersTest {
    @TempDir
    Path dir;

    private CliRun memfas(String... args) {
        return CliRun.of(dir.resolve("m.db"), args);
    }

    private Memory stored(String id) {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir.resolve("m.db"))) {
            return store.get(Memory.DEFAULT_NAMESPACE, id).orElseThrow().memory();
        }
    }

    @Test
    void remember_routesWithAProject_promoteMakesItGlobal_andExplainShowsTheLayer() {
        CliRun decision = memfas("remember", "Hydra deploys on Tuesdays.", "--kind", "decision", "--project", "hydra",
                "--id", "d1");

        assertThat(decision.exit()).as(decision.err()).isZero();
        assertThat(decision.err().strip()).isEqualTo("memfas: in the project layer (kind decision)");
        assertThat(stored("d1").scope()).isEqualTo(Scope.project("hydra"));
        CliRun explained = memfas("context", "when does hydra deploy?", "--explain");
        assertThat(explained.out()).containsPattern("d1 .*relevant, project");

        CliRun promoted = memfas("promote", "d1", "--layer", "global");

        assertThat(promoted.exit()).as(promoted.err()).isZero();
        assertThat(promoted.out().strip()).isEqualTo("d1: global (scope universal)");
        assertThat(stored("d1").scope()).isEqualTo(Scope.universal());
        assertThat(memfas("history", "d1").out()).contains("scope");
    }

    @Test
    void workingMemory_andMovesDown_areRefused_withTheReason() {
        CliRun working = memfas("remember", "scratch", "--layer", "working");
        assertThat(working.exit()).isEqualTo(Main.USAGE);
        assertThat(working.err()).contains("working memory belongs to a session");

        assertThat(memfas("remember", "Prefer records for values.", "--id", "g1").exit()).isZero();
        CliRun down = memfas("promote", "g1", "--layer", "project");
        assertThat(down.exit()).isEqualTo(Main.INPUT);
        assertThat(down.err()).contains("global already");
        CliRun unknown = memfas("promote", "g1", "--layer", "sideways");
        assertThat(unknown.err()).contains("unknown layer 'sideways'");
        CliRun forcedWithoutProject = memfas("remember", "x", "--layer", "project");
        assertThat(forcedWithoutProject.exit()).isEqualTo(Main.INPUT);
        assertThat(forcedWithoutProject.err()).contains("the project layer needs a project");
    }
}
