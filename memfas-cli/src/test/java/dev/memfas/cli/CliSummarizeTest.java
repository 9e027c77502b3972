package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.Memory;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code memfas summarize} over a real SQLite file: the dry run, the run, and the originals kept. */
final class CliSummarizeTest {
    @TempDir
    Path dir;

    @Test
    void summarize_consolidatesOldMemories_andTheOriginalsStayRestorable() {
        Instant old = Instant.now().minus(Duration.ofDays(200));
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir.resolve("m.db"))) {
            store.upsertAll(List.of(
                    Memory.builder("The build server was jenkins-2. It ran on a VM.").id("a").source("notes.md")
                            .createdAt(old).build(),
                    Memory.builder("Jenkins-2 builds took twenty minutes.").id("b").source("notes.md")
                            .createdAt(old.plusSeconds(60)).build()));
        }

        CliRun dry = CliRun.of(dir.resolve("m.db"), "summarize", "--older-than", "90d", "--dry-run");
        assertThat(dry.exit()).as(dry.err()).isZero();
        assertThat(dry.out()).startsWith("dry run: 2 old memories examined; would consolidate 2 into 1 summaries")
                .contains("(not written)  notes.md  2 memories");
        assertThat(CliRun.of(dir.resolve("m.db"), "list", "--archived").out()).doesNotContain("jenkins");

        CliRun run = CliRun.of(dir.resolve("m.db"), "summarize", "--older-than", "90d");
        assertThat(run.out()).startsWith("2 old memories examined; consolidated 2 into 1 summaries");
        assertThat(CliRun.of(dir.resolve("m.db"), "list", "--archived").out()).contains("jenkins-2");
        assertThat(CliRun.of(dir.resolve("m.db"), "restore", "a").exit()).isZero();
        CliRun bad = CliRun.of(dir.resolve("m.db"), "summarize", "--older-than", "soon");
        assertThat(bad.exit()).isEqualTo(Main.INPUT);
        assertThat(bad.err()).contains("--older-than must be a positive number");
    }
}
