package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code memfas suggest} reads what a running curator learned from feedback, from the same SQLite file. */
final class CliSuggestTest {
    @TempDir
    Path dir;

    private CliRun run(String... args) {
        return CliRun.of(dir.resolve("m.db"), args);
    }

    @Test
    void suggest_listsWhatFeedbackTaught_withTheCommandToAddIt() {
        assertThat(run("remember", "Flyway migrations run before each billing deploy.", "--id", "flyway").exit())
                .isZero();
        assertThat(run("suggest").out()).startsWith("no suggestions yet");

        try (ContextCurator curator = Memfas.newBuilder().store(SqliteMemoryStore.open(dir.resolve("m.db"))).build()) {
            for (String query : List.of("billing migrations?", "order of the billing deploy", "billing deploy steps")) {
                String session = "s-" + query.length();
                assertThat(curator.getContext(query, session).memoryIds()).contains("flyway");
                curator.upkeep().reportUsage(session, List.of("flyway"), true);
            }
            assertThat(curator.get(Memory.DEFAULT_NAMESPACE, "flyway")).isPresent();
        }

        CliRun suggested = run("suggest");
        assertThat(suggested.exit()).as(suggested.err()).isZero();
        assertThat(suggested.out()).startsWith("billing").contains("3 helpful queries")
                .contains("memfas triggers add billing --memory flyway");
        assertThat(run("suggest", "--json").out()).contains("{\"keyword\":\"billing\",\"queries\":3,"
                + "\"memory_ids\":[\"flyway\"]}");
    }
}
