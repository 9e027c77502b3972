package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.Memory;
import dev.memfas.spi.StoredMemory;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command end to end, in process, over a real SQLite file; lexical only (--model none) to stay fast. */
final class CliTest {
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

    private List<StoredMemory> stored() {
        List<StoredMemory> out = new ArrayList<>();
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir.resolve("m.db"))) {
            List<String> ids = new ArrayList<>();
            store.forEach(Memory.DEFAULT_NAMESPACE, dev.memfas.MemoryFilter.all(), m -> ids.add(m.id()));
            out.addAll(store.getAll(Memory.DEFAULT_NAMESPACE, ids));
        }
        return out;
    }

    @Test
    void reindex_keepsUnchangedChunksAndTheirAccessCounts_replacesChangedOnes_dropsDeletedFiles() throws Exception {
        Path notes = Files.createDirectories(dir.resolve("notes"));
        Files.writeString(notes.resolve("a.md"), "# Deploy\nBlue-green on Tuesdays.\n\n# Kafka\nRetention 7 days.\n");
        Files.writeString(notes.resolve("b.md"), "# Lunch\nNoon.\n");
        assertThat(memfas("index", notes.toString()).exit()).isZero();
        assertThat(stored()).hasSize(3);
        String deployId = stored().stream().filter(s -> s.memory().text().contains("Blue-green")).findFirst()
                .orElseThrow().memory().id();
        Run look = memfas("context", "how do we deploy blue-green", "--budget", "200");
        assertThat(look.out()).contains("Blue-green on Tuesdays.");
        assertThat(stored()).as("asking changes nothing by default").allMatch(s -> s.accessCount() == 0);
        Run context = memfas("context", "how do we deploy blue-green", "--budget", "200", "--record");
        assertThat(context.out()).contains("Blue-green on Tuesdays.");

        Files.writeString(notes.resolve("a.md"), "# Deploy\nBlue-green on Tuesdays.\n\n# Kafka\nRetention 30 days.\n");
        Files.delete(notes.resolve("b.md"));
        Run again = memfas("index", notes.toString());

        assertThat(again.exit()).isZero();
        assertThat(again.out()).contains("1 chunks added, 1 kept, 2 removed");
        List<StoredMemory> now = stored();
        assertThat(now).extracting(s -> s.memory().text()).containsExactlyInAnyOrder("Blue-green on Tuesdays.",
                "Retention 30 days.");
        StoredMemory deploy = now.stream().filter(s -> s.memory().id().equals(deployId)).findFirst().orElseThrow();
        assertThat(deploy.accessCount()).isEqualTo(1);
    }

    @Test
    void badPathsAreReported_theRestIsIndexed_exitCodeTwo() throws Exception {
        Path good = Files.writeString(dir.resolve("good.md"), "# Fine\nKept.\n");
        Path binary = Files.write(dir.resolve("blob.txt"), new byte[] {'a', 0, 'b'});
        Path latin1 = Files.write(dir.resolve("latin1.txt"), new byte[] {'c', 'a', 'f', (byte) 0xE9});
        Path badFront = Files.writeString(dir.resolve("front.md"), "---\ntags: [x\n---\nbody\n");
        Path big = dir.resolve("big.md");
        try (var ch = java.nio.channels.FileChannel.open(big, java.nio.file.StandardOpenOption.CREATE_NEW,
                java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(new byte[] {'x'}), 50L * 1024 * 1024);
        }

        Run r = memfas("index", good.toString(), binary.toString(), latin1.toString(), badFront.toString(),
                big.toString(), dir.resolve("missing.md").toString());

        assertThat(r.exit()).isEqualTo(Main.INPUT);
        assertThat(r.out()).contains("indexed 1 files");
        assertThat(r.err()).contains("blob.txt: binary file (NUL byte at offset 1)")
                .contains("latin1.txt: not UTF-8 text")
                .contains("front.md: malformed front matter")
                .contains("big.md: too large: 52428801 bytes")
                .contains("missing.md: no such file or directory")
                .contains("5 of the paths failed; the rest was indexed")
                .doesNotContain("Exception");
        assertThat(stored()).extracting(s -> s.memory().text()).containsExactly("Kept.");
    }

    @Test
    void aDirectoryOfTenThousandFiles() throws Exception {
        Path many = Files.createDirectories(dir.resolve("many"));
        for (int i = 0; i < 10_000; i++) {
            Files.writeString(many.resolve("n" + i + ".md"), "Note number " + i + " about topic " + (i % 97) + ".");
        }
        Files.writeString(many.resolve("image.png"), "not indexed");

        Run r = memfas("index", many.toString());

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("indexed 10000 files (0 unchanged): 10000 chunks added");
        assertThat(memfas("index", many.toString()).out()).contains("indexed 0 files (10000 unchanged)");
        assertThat(memfas("recall", "note number 4242").out()).contains("Note number 4242 about");
    }

    @Test
    void rememberRecallForgetTriggersStats() {
        Run saved = memfas("remember", "Grafana lives at ops.example", "--kind", "fact", "--tags", "ops,grafana",
                "--id", "g1");
        assertThat(saved.exit()).isZero();
        assertThat(saved.out().strip()).isEqualTo("g1");
        assertThat(memfas("recall", "grafana").out()).contains("g1").contains("Grafana lives at ops.example");
        assertThat(memfas("triggers", "add", "incident", "Open the Billing dashboard", "--memory", "g1").exit())
                .isZero();
        assertThat(memfas("triggers", "list").out()).contains("incident  — Open the Billing dashboard  → g1");
        Run context = memfas("context", "there is an incident", "--explain");
        assertThat(context.out()).contains("<hint trigger=\"incident\">").contains("included:").contains("g1");
        assertThat(memfas("stats").out()).contains("memories:  1").contains("triggers:  1")
                .contains("none (lexical only)");
        assertThat(memfas("triggers", "remove", "incident").exit()).isZero();
        assertThat(memfas("triggers", "remove", "incident").exit()).isEqualTo(Main.INPUT);
        assertThat(memfas("forget", "g1").out()).contains("forgot g1");
        Run missing = memfas("forget", "g1");
        assertThat(missing.exit()).isEqualTo(Main.INPUT);
        assertThat(missing.err()).contains("no memory with id g1");
    }

    @Test
    void usageAndInputErrorsAreOneLineWithTheirExitCodes() throws Exception {
        Run unknown = memfas("frobnicate");
        assertThat(unknown.exit()).isEqualTo(Main.USAGE);
        assertThat(unknown.err()).startsWith("memfas: unknown command 'frobnicate'; the commands are index,"
                + " context, remember,").contains(", mcp, ui, setup, demo (and help)");
        Run unknownOfGroup = memfas("telemetry", "shwo");
        assertThat(unknownOfGroup.exit()).isEqualTo(Main.USAGE);
        assertThat(unknownOfGroup.err()).startsWith("memfas: unknown command 'shwo' of 'memfas telemetry'; the"
                + " commands are ");
        Run unknownOption = memfas("stats", "--frob");
        assertThat(unknownOption.err()).startsWith("memfas: Unknown option: '--frob'");

        Run budget = memfas("context", "q", "--budget", "0");
        assertThat(budget.exit()).isEqualTo(Main.INPUT);
        assertThat(budget.err().strip()).isEqualTo("memfas: --budget must be positive: 0");

        Run scope = memfas("remember", "x", "--scope", "galaxy");
        assertThat(scope.exit()).isEqualTo(Main.INPUT);
        assertThat(scope.err()).contains("scope must be 'universal', 'language:NAME', 'project:NAME' or 'project:NAME:task:TASK': 'galaxy'")
                .doesNotContain("\tat ");

        Path config = Files.writeString(dir.resolve("memfas.yaml"), "budget: 500\ncolour: blue\n");
        Run bad = memfas("stats", "--config", config.toString());
        assertThat(bad.exit()).isEqualTo(Main.INPUT);
        assertThat(bad.err()).contains("unknown key 'colour'");
    }

    @Test
    void configFile_setsSourcesTriggersAndBudget_relativeToItsDirectory() throws Exception {
        Files.createDirectories(dir.resolve("memory"));
        Files.writeString(dir.resolve("memory/2026-11-17.md"), "# Lag\nConsumer lag fixed by smaller batches.\n");
        Files.writeString(dir.resolve("MEMORY.md"), "# Rules\nNo Friday deploys.\n");
        Path config = Files.writeString(dir.resolve("memfas.yaml"), """
                sources: [MEMORY.md, "memory/*.md"]
                budget: 150
                telemetry: logs/turns.jsonl
                triggers:
                  - keyword: friday
                    hint: Ask Maria first.
                chunk: {target_tokens: 200, overlap_tokens: 20}
                """);
        assertThat(memfas("index", "--config", config.toString()).out()).contains("2 chunks added");
        Run c = memfas("context", "can we deploy on friday", "--config", config.toString(), "--explain");
        assertThat(c.out()).contains("Ask Maria first.").contains("No Friday deploys.").contains("of 150 tokens");
        assertThat(dir.resolve("logs/turns.jsonl")).isRegularFile();
        Run summary = memfas("telemetry", "summary", "--config", config.toString());
        assertThat(summary.out()).contains("turns: 1 in 0 sessions");
        assertThat(memfas("telemetry", "show", "--last", "1h", "--config", config.toString()).out())
                .contains("can we deploy on friday").contains("/150");
        Run badLast = memfas("telemetry", "show", "--last", "soon", "--config", config.toString());
        assertThat(badLast.exit()).isEqualTo(Main.INPUT);
        assertThat(badLast.err()).contains("--last must be a positive number with s, m, h or d (like 24h): 'soon'");
        Path csv = dir.resolve("t.csv");
        assertThat(memfas("telemetry", "export", "--format", "csv", "--output", csv.toString(), "--config",
                config.toString()).exit()).isZero();
        assertThat(Files.readAllLines(csv)).hasSize(2).first().asString().startsWith("timestamp,session,turn");
    }

    @Test
    void telemetrySummary_countsTheFactsTakenFromConversations() throws Exception {
        Path log = dir.resolve("t.jsonl");
        try (dev.memfas.ContextCurator curator = dev.memfas.core.Memfas.newBuilder().telemetry(log).build()) {
            curator.memories().remember(dev.memfas.Conversation.of("chat-1", java.util.List.of(
                    dev.memfas.Conversation.Message.of("user", "I prefer aisle seats on long flights."),
                    dev.memfas.Conversation.Message.of("assistant", "Noted."))), false);
        }
        Path config = Files.writeString(dir.resolve("memfas.yaml"), "telemetry: t.jsonl\n");
        Run summary = memfas("telemetry", "summary", "--config", config.toString());
        assertThat(summary.out()).contains("turns: 0 in 0 sessions")
                .contains("facts: 1 from 1 conversations (0 failed); model tokens 0 read, 0 written; cost 0.0000");
    }
}
