package dev.memfas.cli;

import dev.memfas.config.internal.OwnerOnly;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.Memory;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the command writes holds memories and queries: every file it creates is the owner's alone (0600, directories
 * 0700), and an export never drops a memory for a file name another took.
 */
final class CliFileModesTest {
    @TempDir
    Path dir;

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void theStore_itsLogs_telemetry_exports_backupsAndReports_areCreatedOwnerOnly() throws Exception {
        Path workspace = dir.resolve("project/.memfas");
        Path db = workspace.resolve("memfas.db");

        assertThat(CliRun.of(db, "remember", "Deploys happen on Tuesdays.").exit()).isZero();
        assertThat(CliRun.of(db, "context", "when do deploys happen").exit()).isZero();
        Path jsonl = dir.resolve("out/export.jsonl");
        Files.createDirectories(jsonl.getParent());
        assertThat(CliRun.of(db, "export", "--output", jsonl.toString()).exit()).isZero();
        Path markdown = dir.resolve("out/markdown");
        assertThat(CliRun.of(db, "export", "--format", "markdown", "--output", markdown.toString()).exit()).isZero();
        Path backup = dir.resolve("out/backup.db");
        assertThat(CliRun.of(db, "backup", backup.toString()).exit()).isZero();
        Path csv = dir.resolve("out/turns.csv");
        assertThat(CliRun.of(db, "telemetry", "export", "--format", "csv", "--output", csv.toString()).exit())
                .isZero();
        Path report = dir.resolve("out/pages/report.html");
        assertThat(CliRun.of(db, "report", "--out", report.toString()).exit()).isZero();

        assertThat(mode(dir.resolve("project/.memfas"))).isEqualTo("rwx------");
        assertThat(mode(db)).isEqualTo("rw-------");
        try (Stream<Path> files = Files.list(workspace)) {
            List<Path> all = files.toList();
            assertThat(all).extracting(p -> p.getFileName().toString()).contains("memfas.db", "telemetry.jsonl");
            for (Path p : all) {
                assertThat(mode(p)).as(p.toString()).isEqualTo("rw-------");
            }
        }
        for (Path p : List.of(jsonl, backup, csv, report)) {
            assertThat(mode(p)).as(p.toString()).isEqualTo("rw-------");
        }
        assertThat(mode(markdown)).isEqualTo("rwx------");
        assertThat(mode(report.getParent())).isEqualTo("rwx------");
        try (Stream<Path> files = Files.list(markdown)) {
            assertThat(files.toList()).singleElement().satisfies(p -> assertThat(mode(p)).isEqualTo("rw-------"));
        }
    }

    @Test
    void anExistingStore_keepsTheModeItsOwnerGaveIt() throws Exception {
        Path db = dir.resolve("shared.db");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(db)) {
            store.upsertAll(List.of());
        }
        Files.setPosixFilePermissions(db, PosixFilePermissions.fromString("rw-r-----"));

        assertThat(CliRun.of(db, "remember", "Deploys happen on Tuesdays.").exit()).isZero();

        assertThat(mode(db)).isEqualTo("rw-r-----");
    }

    @Test
    void idsAlikeInTheirFirst80Characters_exportToFilesOfTheirOwn_andAllComeBack() throws Exception {
        // The same first 80 characters, and the same first 32 bits of SHA-256: found by trying suffixes.
        String prefix = "notes/" + "a".repeat(74);
        Path db = dir.resolve("m.db");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(db)) {
            store.upsertAll(List.of(
                    Memory.builder("first").id(prefix + "#section-36016").createdAt(java.time.Instant.EPOCH).build(),
                    Memory.builder("second").id(prefix + "#section-63514")
                    .createdAt(java.time.Instant.EPOCH).build()));
        }
        Path out = dir.resolve("md");

        CliRun export = CliRun.of(db, "export", "--format", "markdown", "--output", out.toString());
        CliRun imported = CliRun.of(dir.resolve("copy.db"), "import", out.toString());

        assertThat(export.err()).contains("exported 2 memories");
        try (Stream<Path> files = Files.list(out)) {
            assertThat(files.count()).isEqualTo(2);
        }
        assertThat(imported.out()).contains("imported 2 memories");
    }

    @Test
    void aFileNameAlreadyTaken_isNeverWrittenOver_theNextNameIsUsed() throws Exception {
        Path first = ExportCommand.newFile(dir, "same-id");
        Path second = ExportCommand.newFile(dir, "same-id");
        Path third = ExportCommand.newFile(dir, "same-id");

        assertThat(first.getFileName().toString()).isEqualTo(ExportCommand.fileName("same-id"));
        assertThat(second.getFileName().toString()).endsWith("-2.md");
        assertThat(third.getFileName().toString()).endsWith("-3.md");
        assertThat(List.of(first, second, third)).allSatisfy(p -> assertThat(mode(p)).isEqualTo("rw-------"));
    }
}
