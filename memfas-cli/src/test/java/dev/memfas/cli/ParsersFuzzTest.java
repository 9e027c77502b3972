package dev.memfas.cli;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * The command's parsers of outside text under a coverage-guided fuzzer: memory files with front matter, file-name
 * dates, export lines and files, and {@code memfas.yaml}. Each may reject its input only with the error it documents
 * (which the command turns into one line and exit code 2); anything else thrown is a finding.
 *
 * <p>In {@code ./mvnw verify} each target replays the inputs kept under {@code src/test/resources/dev/memfas/cli/
 * ParsersFuzzTestInputs/}. To fuzz one for real (minutes, not part of the build):
 * {@code JAZZER_FUZZ=1 ./mvnw -B -pl memfas-cli test -Dtest='ParsersFuzzTest#frontMatter'} (see docs/fuzzing.md).
 */
final class ParsersFuzzTest {
    private static final MemoryFiles FILES = new MemoryFiles(64, 8);
    private static final Instant NOW = Instant.parse("2026-11-24T00:00:00Z");

    @FuzzTest(maxDuration = "2m")
    void frontMatter(FuzzedDataProvider data) {
        String name = data.pickValue(new String[] {"note.md", "2026-11-17.md", "memory.txt", "m.json", "m.jsonl"});
        String text = data.consumeRemainingAsString();
        try {
            FILES.parse("notes/" + name, name, text, NOW);
        } catch (MemoryFiles.BadFileException | IllegalArgumentException expected) {
            // a file the indexer reports and skips
        }
    }

    @FuzzTest(maxDuration = "2m")
    void fileNameDates(FuzzedDataProvider data) {
        String folders = data.consumeString(40);
        String name = data.consumeRemainingAsString();
        try {
            FileDates.of(folders + "/" + name, name);
        } catch (MemoryFiles.BadFileException expected) {
            // "looks like a date but is not one"
        }
    }

    @FuzzTest(maxDuration = "2m")
    void jsonlImport(FuzzedDataProvider data) {
        try {
            MemoryTransfer.fromJsonLine(data.consumeRemainingAsString(), "fuzz.jsonl line 1");
        } catch (IllegalArgumentException expected) {
            // a malformed line, named with its key
        }
    }

    @FuzzTest(maxDuration = "2m")
    void markdownImport(FuzzedDataProvider data) {
        try {
            MemoryTransfer.fromMarkdown(data.consumeRemainingAsString(), "fuzz.md");
        } catch (IllegalArgumentException expected) {
            // a malformed file, named with its key
        }
    }

    @FuzzTest(maxDuration = "2m")
    void config(FuzzedDataProvider data) throws IOException {
        Path dir = Files.createTempDirectory("memfas-fuzz");
        Path file = dir.resolve(CliConfig.FILE_NAME);
        try {
            Files.writeString(file, data.consumeRemainingAsString());
            CliConfig.load(file);
        } catch (IllegalArgumentException expected) {
            // an error naming the file and the key
        } finally {
            Files.deleteIfExists(file);
            Files.delete(dir);
        }
    }
}
