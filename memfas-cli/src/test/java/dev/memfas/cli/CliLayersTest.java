package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.Memory;
import dev.memfas.Scope;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Layers from the command line: routing on remember, promote, and the layer of each explained item. */
final class CliLayersTest {
    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {}

    private Run memfas(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--db", dir.resolve("m.db").toString(), "--model", "none"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.run(all.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(exit, out.toString(), err.toString());
    }

    private Memory stored(String id) {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir.resolve("m.db"))) {
            return store.get(Memory.DEFAULT_NAMESPACE, id).orElseThrow().memory();
        }
    }

    @Test
    void remember_routesWithAProject_promoteMakesItGlobal_andExplainShowsTheLayer() {
        Run decision = memfas("remember", "Hydra deploys on Tuesdays.", "--kind", "decision", "--project", "hydra",
                "--id", "d1");

        assertThat(decision.exit()).as(decision.err()).isZero();
        assertThat(decision.err().strip()).isEqualTo("memfas: in the project layer (kind decision)");
        assertThat(stored("d1").scope()).isEqualTo(Scope.project("hydra"));
        Run explained = memfas("context", "when does hydra deploy?", "--explain");
        assertThat(explained.out()).containsPattern("d1 .*relevant, project");

        Run promoted = memfas("promote", "d1", "--layer", "global");

        assertThat(promoted.exit()).as(promoted.err()).isZero();
        assertThat(promoted.out().strip()).isEqualTo("d1: global (scope universal)");
        assertThat(stored("d1").scope()).isEqualTo(Scope.universal());
        assertThat(memfas("history", "d1").out()).contains("scope");
    }

    @Test
    void workingMemory_andMovesDown_areRefused_withTheReason() {
        Run working = memfas("remember", "scratch", "--layer", "working");
        assertThat(working.exit()).isEqualTo(Main.USAGE);
        assertThat(working.err()).contains("working memory belongs to a session");

        assertThat(memfas("remember", "Prefer records for values.", "--id", "g1").exit()).isZero();
        Run down = memfas("promote", "g1", "--layer", "project");
        assertThat(down.exit()).isEqualTo(Main.INPUT);
        assertThat(down.err()).contains("global already");
        Run unknown = memfas("promote", "g1", "--layer", "sideways");
        assertThat(unknown.err()).contains("unknown layer 'sideways'");
        Run forcedWithoutProject = memfas("remember", "x", "--layer", "project");
        assertThat(forcedWithoutProject.exit()).isEqualTo(Main.INPUT);
        assertThat(forcedWithoutProject.err()).contains("the project layer needs a project");
    }
}
