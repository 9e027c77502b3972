package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code memfas patterns} over a real SQLite file. */
final class CliPatternsTest {
    @TempDir
    Path dir;

    @Test
    void patterns_listsTheRecurringFix_withItsCountSourcesAndLatestExample() {
        Path db = dir.resolve("m.db");
        Instant now = Instant.now();
        try (ContextCurator curator = Memfas.newBuilder().store(SqliteMemoryStore.open(db)).build()) {
            curator.rememberAll(List.of(
                    Memory.builder("Fixed the flaky login test by freezing the clock in the login test setup.")
                            .id("fix1").source("s1").createdAt(now.minus(Duration.ofDays(9))).build(),
                    Memory.builder("The flaky login test failed again; fixed by freezing the clock in its setup.")
                            .id("fix2").source("s2").createdAt(now.minus(Duration.ofDays(5))).build(),
                    Memory.builder("Flaky login test again: freezing the clock in the login test setup fixed it.")
                            .id("fix3").source("s3").createdAt(now.minus(Duration.ofDays(1))).build(),
                    Memory.builder("The office coffee machine is descaled on Fridays.").id("coffee").build()));
        }

        CliRun run = CliRun.of(db, "patterns");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("3× ").contains("login test").contains("(3 sources)").contains("fix3")
                .contains("1 pattern among the latest 1000 memories").doesNotContain("coffee");

        CliRun json = CliRun.of(db, "patterns", "--json");
        assertThat(json.out().strip().lines()).hasSize(1).allMatch(l -> l.contains("\"count\":3")
                && l.contains("\"memory_ids\":[\"fix3\",\"fix2\",\"fix1\"]"));
        assertThat(CliRun.of(db, "patterns", "--limit", "0").err()).contains("--limit must be in [1, 100]: 0");
    }
}
