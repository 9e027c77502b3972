package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.Memory;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The same filters for list, context and recall, from the command line. */
final class CliFiltersTest {
    @TempDir
    Path dir;

    private CliRun memfas(String... args) {
        return CliRun.of(dir.resolve("m.db"), args);
    }

    @Test
    void listContextAndRecall_takeTheSameFilters() {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir.resolve("m.db"))) {
            store.upsertAll(List.of(
                    Memory.builder("Kafka retention is seven days.").id("k1").author("ana").source("notes/kafka.md")
                            .createdAt(Instant.parse("2026-10-01T00:00:00Z")).build(),
                    Memory.builder("Kafka consumers restart on deploy.").id("k2").author("ben").source("chat-3")
                            .createdAt(Instant.parse("2026-11-01T00:00:00Z")).build(),
                    Memory.builder("Deploys go out on Tuesdays.").id("d1").author("ana").source("notes/deploy.md")
                            .createdAt(Instant.parse("2026-11-10T00:00:00Z")).build()));
        }

        assertThat(memfas("list", "--author", "ana").out()).contains("k1").contains("d1").doesNotContain("k2");
        assertThat(memfas("list", "--topic", "kafka", "--until", "2026-10-15").out()).contains("k1")
                .doesNotContain("k2").doesNotContain("d1");
        assertThat(memfas("context", "kafka deploy", "--source", "notes/").out()).contains("seven days")
                .contains("Tuesdays").doesNotContain("consumers");
        assertThat(memfas("recall", "kafka", "--author", "ben").out()).contains("k2").doesNotContain("k1");
        assertThat(memfas("recall", "kafka", "--since", "someday").err()).contains("--since must be YYYY-MM-DD");
    }
}
