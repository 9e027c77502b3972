package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.Memory;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code memfas import} of an export larger than the heap, in a JVM of its own: it reads a line at a time, so it
 * stores every memory instead of dying of an OutOfMemoryError, and a malformed last line still stores nothing.
 */
final class ImportStreamingTest {
    private static final int MEMORIES = 48;
    private static final int HEAP_MB = 40;

    @TempDir
    Path dir;

    /** An export of {@value #MEMORIES} memories of nearly a million characters each: about 48 MB. */
    private Path bigExport(String lastLine) throws Exception {
        Path file = dir.resolve("big.jsonl");
        String[] words = {"deploy", "kafka", "billing", "retention", "canary", "schema", "review", "oncall"};
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int i = 0; i < MEMORIES; i++) {
                StringBuilder text = new StringBuilder(Memory.MAX_TEXT_CHARS);
                for (int j = 0; text.length() < Memory.MAX_TEXT_CHARS - 20; j++) {
                    text.append(words[(i + j * 7) % words.length]).append(j % 13 == 12 ? ". " : " ");
                }
                w.write("{\"id\":\"m" + i + "\",\"text\":\"" + text.toString().strip() + "\","
                        + "\"created_at\":\"2026-11-01T00:00:00Z\"}\n");
            }
            if (lastLine != null) {
                w.write(lastLine + "\n");
            }
        }
        assertThat(Files.size(file)).isGreaterThan((long) HEAP_MB << 20);
        return file;
    }

    private record Ran(int exit, String out) {}

    private Ran importIn(Path file, Path db) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path log = dir.resolve("import.log");
        Process p = new ProcessBuilder(java.toString(), "-Xmx" + HEAP_MB + "m", "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "import", file.toString(),
                "--db", db.toString(), "--model", "none", "--no-telemetry")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).as("import finished").isTrue();
        return new Ran(p.exitValue(), Files.readString(log));
    }

    @Test
    void anExportLargerThanTheHeap_isImportedWhole() throws Exception {
        Path db = dir.resolve("m.db");

        Ran r = importIn(bigExport(null), db);

        assertThat(r.exit()).as(r.out()).isZero();
        assertThat(r.out()).contains("imported " + MEMORIES + " memories").doesNotContain("OutOfMemoryError");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(db)) {
            assertThat(store.count(Memory.DEFAULT_NAMESPACE)).isEqualTo(MEMORIES);
            assertThat(store.get(Memory.DEFAULT_NAMESPACE, "m47").orElseThrow().memory().text())
                    .hasSizeGreaterThan(Memory.MAX_TEXT_CHARS - 40);
        }
    }

    @Test
    void aMalformedLineAfterAllTheOthers_storesNothing() throws Exception {
        Path db = dir.resolve("m.db");

        Ran r = importIn(bigExport("{\"id\":\"late\",\"text\":\"x\",\"colour\":\"blue\"}"), db);

        assertThat(r.exit()).as(r.out()).isEqualTo(Main.INPUT);
        assertThat(r.out()).contains("big.jsonl line " + (MEMORIES + 1) + ": unknown key 'colour'");
        assertThat(List.of(db)).allSatisfy(f -> assertThat(f).doesNotExist());
    }
}
