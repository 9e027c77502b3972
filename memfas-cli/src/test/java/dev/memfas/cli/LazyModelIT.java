package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With the real default model: commands that embed nothing never load it. */
final class LazyModelIT {
    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {}

    private Run memfas(String... args) {
        String[] all = java.util.stream.Stream.concat(java.util.Arrays.stream(args),
                java.util.stream.Stream.of("--db", dir.resolve("m.db").toString())).toArray(String[]::new);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.run(all, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void reindexingAnUnchangedTree_statsAndTriggers_neverLoadTheModel() throws Exception {
        Path notes = Files.createDirectories(dir.resolve("notes"));
        for (int i = 0; i < 3; i++) {
            Files.writeString(notes.resolve("n" + i + ".md"), "# Note " + i + "\nDeploys need approval " + i + ".\n");
        }

        Run first = memfas("index", notes.toString());
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.err()).contains("memfas: loading model bge-small-en-v1.5-q…");

        Run again = memfas("index", notes.toString());
        assertThat(again.out()).contains("indexed 0 files (3 unchanged)");
        assertThat(again.err()).isEmpty();
        assertThat(memfas("stats").err()).isEmpty();
        assertThat(memfas("triggers", "add", "deploy", "Ask first.").err()).isEmpty();

        Run context = memfas("context", "who approves deploys?");
        assertThat(context.err()).contains("loading model");
        assertThat(context.out()).contains("Deploys need approval");
        // The model's relevance floor holds before it is loaded: a question about nothing stored gets nothing.
        Run general = memfas("context", "What is the capital of France?");
        assertThat(general.exit()).as(general.err()).isZero();
        assertThat(general.out()).doesNotContain("<memory ");
    }

    @Test
    void reembed_replacesEveryVectorWithTheConfiguredModel_andNeedsOne() throws Exception {
        Path notes = Files.createDirectories(dir.resolve("notes"));
        Files.writeString(notes.resolve("a.md"), "# A\nKafka retention is thirty days.\n\n# B\nLunch is at noon.\n");
        assertThat(memfas("index", notes.toString(), "--model", "none").exit()).isZero();
        assertThat(memfas("stats", "--json").out()).contains("\"vectors\":0");

        Run r = memfas("reembed");

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out().strip()).isEqualTo("re-embedded 2 memories with bge-small-en-v1.5-q (before: no vectors)");
        assertThat(memfas("stats", "--json").out()).contains("\"vectors\":2")
                .contains("\"vector_model\":\"bge-small-en-v1.5-q/384\"");
        Run none = memfas("reembed", "--model", "none");
        assertThat(none.exit()).isEqualTo(Main.INPUT);
        assertThat(none.err().strip()).isEqualTo("memfas: reembed needs a model: --model none embeds nothing");
    }
}
