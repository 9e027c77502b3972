package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code memfas suggest} reads what a running curator learned from feedback, from the same SQLite file. */
final class CliSuggestTest {
    @TempDir
    Path dir;

    private String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new java.util.ArrayList<>(List.of(args));
        all.addAll(List.of("--db", dir.resolve("m.db").toString(), "--model", "none"));
        int exit = Main.run(all.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        return new String[] {Integer.toString(exit), out.toString(), err.toString()};
    }

    @Test
    void suggest_listsWhatFeedbackTaught_withTheCommandToAddIt() {
        String[] empty = run("remember", "Flyway migrations run before each billing deploy.", "--id", "flyway");
        assertThat(empty[0]).isEqualTo("0");
        assertThat(run("suggest")[1]).startsWith("no suggestions yet");

        try (ContextCurator curator = Memfas.newBuilder().store(SqliteMemoryStore.open(dir.resolve("m.db"))).build()) {
            for (String query : List.of("billing migrations?", "order of the billing deploy", "billing deploy steps")) {
                String session = "s-" + query.length();
                assertThat(curator.getContext(query, session).memoryIds()).contains("flyway");
                curator.reportUsage(session, List.of("flyway"), true);
            }
            assertThat(curator.get(Memory.DEFAULT_NAMESPACE, "flyway")).isPresent();
        }

        String[] suggested = run("suggest");
        assertThat(suggested[0]).as(suggested[2]).isEqualTo("0");
        assertThat(suggested[1]).startsWith("billing").contains("3 helpful queries")
                .contains("memfas triggers add billing --memory flyway");
        assertThat(run("suggest", "--json")[1]).contains("{\"keyword\":\"billing\",\"queries\":3,"
                + "\"memory_ids\":[\"flyway\"]}");
    }
}
