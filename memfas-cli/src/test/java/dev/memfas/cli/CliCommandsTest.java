package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.Scope;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The command's verbs through its real entry point, over a real SQLite file. */
final class CliCommandsTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {}

    private Path db() {
        return dir.resolve("m.db");
    }

    /** The command with this test's database, lexical only (fast). */
    private Run memfas(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--db", db().toString(), "--model", "none"));
        return raw(all.toArray(String[]::new));
    }

    private static Run raw(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(exit, out.toString(), err.toString());
    }

    private void seed(Memory... memories) {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(db())) {
            store.upsertAll(List.of(memories));
        }
    }

    // ---------------------------------------------------------------- help

    @Test
    void everyCommand_printsUsage_withHelpFlags_andThroughTheHelpCommand() {
        CommandLine cli = new CommandLine(new Main());
        List<String> paths = new ArrayList<>();
        collect(cli, "", paths);
        assertThat(paths).contains("index", "context", "list", "show", "export", "import", "backup", "reembed",
                "report-usage", "stats", "triggers add", "telemetry summary", "mcp", "ui", "demo");

        for (String path : paths) {
            List<String> words = List.of(path.split(" "));
            for (String flag : List.of("--help", "-h")) {
                List<String> args = new ArrayList<>(words);
                args.add(flag);
                Run r = raw(args.toArray(String[]::new));
                assertThat(r.exit()).as(path + " " + flag + ": " + r.err()).isZero();
                assertThat(r.out()).as(path + " " + flag).startsWith("Usage: memfas " + path);
            }
            if (words.size() == 1) {
                Run r = raw("help", path);
                assertThat(r.exit()).as("help " + path).isZero();
                assertThat(r.out()).as("help " + path).startsWith("Usage: memfas " + path);
            }
        }
        assertThat(raw("help").out()).startsWith("Usage: memfas").contains("report-usage");
    }

    private static void collect(CommandLine cli, String prefix, List<String> out) {
        for (var e : cli.getSubcommands().entrySet()) {
            if (e.getKey().equals("help")) {
                continue;
            }
            String path = prefix.isEmpty() ? e.getKey() : prefix + " " + e.getKey();
            out.add(path);
            collect(e.getValue(), path, out);
        }
    }

    // ---------------------------------------------------------------- read-only commands

    @Test
    void supersedeUpdateHistory_keepTheOldState_andRecallLeavesItOutUnlessAsked() {
        seed(Memory.builder("Checkout-api owner is Dev").id("dev").author("ana")
                .createdAt(Instant.parse("2026-10-01T09:00:00Z")).build());

        Run superseded = memfas("supersede", "dev", "Aiko now owns checkout-api", "--id", "aiko",
                "--valid-from", "2026-11-02");
        assertThat(superseded.exit()).as(superseded.err()).isZero();
        assertThat(superseded.out().strip()).isEqualTo("aiko");
        assertThat(memfas("recall", "checkout-api owner").out()).contains("aiko  cli")
                .doesNotContain("Checkout-api owner is Dev");
        assertThat(memfas("recall", "checkout-api owner", "--include-superseded").out())
                .contains("2026-10-01  dev  api  (superseded by aiko)").contains("aiko  cli");
        assertThat(memfas("recall", "checkout-api owner", "--as-of", "2026-10-15").out())
                .contains("Checkout-api owner is Dev").doesNotContain("Aiko");
        assertThat(memfas("context", "checkout-api owner", "--include-superseded").out())
                .contains("valid-until=\"2026-11-02\" superseded-by=\"aiko\">Checkout-api owner is Dev");

        assertThat(memfas("update", "aiko", "--text", "Aiko Tanaka owns checkout-api").exit()).isZero();
        Run history = memfas("history", "aiko");
        assertThat(history.out()).containsSubsequence("v1", "created", "Aiko now owns checkout-api", "v2",
                "changed text", "Aiko Tanaka owns checkout-api");
        Run devHistory = memfas("history", "dev", "--json");
        List<String> lines = devHistory.out().lines().toList();
        assertThat(lines).hasSize(2);
        JsonNode second = JSON.readTree(lines.get(1));
        assertThat(second.get("changed").toString()).isEqualTo("[\"validUntil\",\"supersededBy\"]");
        assertThat(second.get("memory").get("valid_until").asString()).isEqualTo("2026-11-02T00:00:00Z");

        Run nothing = memfas("update", "aiko");
        assertThat(nothing.exit()).isEqualTo(Main.INPUT);
        assertThat(nothing.err()).contains("nothing to change");
        Run again = memfas("supersede", "dev", "Kim owns it");
        assertThat(again.exit()).isEqualTo(Main.INPUT);
        assertThat(again.err().strip()).isEqualTo(
                "memfas: memory 'dev' is already superseded by 'aiko'; supersede that one instead");
        assertThat(memfas("history", "nope").exit()).isEqualTo(Main.INPUT);
        assertThat(memfas("update", "nope", "--text", "x").exit()).isEqualTo(Main.INPUT);
    }

    @Test
    void remember_withoutAnId_ofWhatIsStored_printsTheStoredId_andSaysSo() {
        Run first = memfas("remember", "Standup is at 9:30.", "--valid-until", "2030-01-01");
        Run again = memfas("remember", "standup is at 9:30");

        assertThat(again.exit()).isZero();
        assertThat(again.out().strip()).isEqualTo(first.out().strip());
        assertThat(again.err().strip()).isEqualTo("memfas: already remembered as " + first.out().strip()
                + " (not stored again)");
        assertThat(first.err()).isEmpty();
        assertThat(memfas("show", first.out().strip()).out()).contains("valid_until:").contains("2030-01-01T00:00:00Z")
                .contains("evidence_count:").containsPattern("evidence_count:\\s+2");
        // A generated id fits the list's id column whole, so what the list shows can be passed to show or forget.
        assertThat(first.out().strip()).matches("m[0-9]{21}");
        assertThat(memfas("list").out()).contains("  " + first.out().strip() + " ");
    }

    @Test
    void orient_saysWhatWasStoredSinceTheLastLook() {
        assertThat(memfas("remember", "Deploys run on Tuesdays.", "--id", "a").exit()).isZero();

        Run first = memfas("orient", "--timezone", "Europe/Berlin");
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.out()).startsWith("now: ").contains("first orientation: 1 memories in the store");

        assertThat(memfas("remember", "Aiko owns checkout-api now.", "--id", "b").exit()).isZero();
        Run back = memfas("orient", "--json");
        JsonNode o = JSON.readTree(back.out());
        assertThat(o.get("added").asInt()).isEqualTo(1);
        assertThat(o.get("last_seen").isNull()).isFalse();
        assertThat(o.get("newest").get(0).get("id").asString()).isEqualTo("b");
        Run bad = memfas("orient", "--timezone", "Mars/Olympus");
        assertThat(bad.exit()).isEqualTo(Main.INPUT);
        assertThat(bad.err()).contains("--timezone is not a time zone: 'Mars/Olympus'");
    }

    @Test
    void maintain_archivesWhatAgedOut_listArchivedShowsIt_restoreBringsItBack() {
        Instant now = Instant.now();
        seed(Memory.builder("The old build server was jenkins-2").id("old")
                        .createdAt(now.minus(java.time.Duration.ofDays(700))).build(),
                Memory.builder("The build server is ci-7").id("new").createdAt(now.minus(java.time.Duration.ofDays(2)))
                        .build(),
                Memory.builder("Never deploy on Fridays").id("rule").pinned(true)
                        .createdAt(now.minus(java.time.Duration.ofDays(700))).build());

        Run dry = memfas("maintain", "--dry-run");
        assertThat(dry.exit()).as(dry.err()).isZero();
        assertThat(dry.out()).startsWith("dry run: 3 live memories examined (1 pinned, exempt): would archive 1,")
                .contains("archive old");
        assertThat(memfas("list").out()).contains("old");

        Run done = memfas("maintain", "--json");
        JsonNode report = JSON.readTree(done.out());
        assertThat(report.get("archived").asInt()).isEqualTo(1);
        assertThat(report.get("actions").get(0).get("memory_id").asString()).isEqualTo("old");
        assertThat(memfas("list").out()).doesNotContain("jenkins-2").contains("ci-7");
        assertThat(memfas("list", "--archived").out()).contains("jenkins-2").doesNotContain("ci-7");
        assertThat(memfas("recall", "build server jenkins").out()).doesNotContain("jenkins-2");

        assertThat(memfas("restore", "old").out().strip()).isEqualTo("restored old");
        assertThat(memfas("recall", "build server jenkins").out()).contains("jenkins-2");
        Run notArchived = memfas("restore", "new");
        assertThat(notArchived.exit()).isEqualTo(Main.INPUT);
        assertThat(notArchived.err().strip()).isEqualTo("memfas: memory 'new' is not archived");
    }

    @Test
    void readOnlyCommands_onAMissingStore_exitTwo_withOneLine_andCreateNothing() {
        Path missing = dir.resolve("nonexistent/dir/m.db");
        for (String[] command : List.of(new String[] {"stats"}, new String[] {"list"}, new String[] {"show", "x"},
                new String[] {"recall", "q"}, new String[] {"context", "q"}, new String[] {"export", "--output", "-"},
                new String[] {"triggers", "list"}, new String[] {"backup", dir.resolve("b.db").toString()})) {
            List<String> args = new ArrayList<>(List.of(command));
            args.addAll(List.of("--db", missing.toString(), "--model", "none"));
            Run r = raw(args.toArray(String[]::new));

            assertThat(r.exit()).as(String.join(" ", command)).isEqualTo(Main.INPUT);
            assertThat(r.err().strip()).as(String.join(" ", command)).isEqualTo("memfas: no memfas store at "
                    + missing + " (create one with 'memfas index PATH' or 'memfas remember TEXT', or pass --db FILE)");
        }
        assertThat(dir.resolve("nonexistent")).doesNotExist();
    }

    @Test
    void emptyStore_saysSo_andNamesTheCommandsThatFillIt() {
        assertThat(memfas("remember", "temporary", "--id", "t").exit()).isZero();
        assertThat(memfas("forget", "t").exit()).isZero();

        for (String[] command : List.of(new String[] {"context", "q"}, new String[] {"recall", "q"},
                new String[] {"list"}, new String[] {"stats"})) {
            assertThat(memfas(command).out()).as(command[0]).contains("holds no memories yet")
                    .contains("memfas index PATH...").contains("memfas remember TEXT");
        }
    }

    @Test
    void stats_countsVectorsFromTheStore_withoutLoadingAModel() throws Exception {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(db())) {
            dev.memfas.spi.VectorSpace space = new dev.memfas.spi.VectorSpace("bge-small-en-v1.5-q", 2);
            store.upsertAll(List.of(Memory.builder("a").id("a").createdAt(Instant.EPOCH).build(),
                    Memory.builder("b").id("b").createdAt(Instant.EPOCH).build()),
                    dev.memfas.spi.Embeddings.of(space, List.of(new float[] {1, 0}, new float[] {0, 1})));
        }

        Run r = memfas("stats", "--json");

        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode s = JSON.readTree(r.out());
        assertThat(s.get("memories").asLong()).isEqualTo(2);
        assertThat(s.get("vectors").asLong()).isEqualTo(2);
        assertThat(s.get("vector_model").asString()).isEqualTo("bge-small-en-v1.5-q/2");
        assertThat(memfas("stats").out()).contains("vectors:   2 (bge-small-en-v1.5-q/2)");
    }

    // ---------------------------------------------------------------- telemetry

    @Test
    void telemetry_goesBesideTheDatabase_canBeTurnedOff_andAFailureToWriteItIsOnlyAWarning() throws Exception {
        seed(Memory.builder("Kafka retention is seven days.").id("a").createdAt(Instant.EPOCH).build());

        assertThat(memfas("context", "kafka").exit()).isZero();
        assertThat(dir.resolve("telemetry.jsonl")).isRegularFile();
        Files.delete(dir.resolve("telemetry.jsonl"));

        assertThat(memfas("context", "kafka", "--no-telemetry").exit()).isZero();
        assertThat(dir.resolve("telemetry.jsonl")).doesNotExist();

        Files.createDirectories(dir.resolve("telemetry.jsonl")); // a directory where the log would go
        Run blocked = memfas("context", "kafka");
        assertThat(blocked.exit()).isZero();
        assertThat(blocked.out()).contains("Kafka retention is seven days.");
        assertThat(blocked.err()).startsWith("memfas: warning: cannot write telemetry to ")
                .contains("continuing without it");
    }

    // ---------------------------------------------------------------- list, show

    @Test
    void list_filtersByDateKindScopeTagAndSource_newestFirst_paged() {
        seed(Memory.builder("old decision").id("d1").kind("decision").source("MEMORY.md > Decisions")
                        .createdAt(Instant.parse("2026-10-01T09:00:00Z")).tags("db").build(),
                Memory.builder("new decision").id("d2").kind("decision").source("MEMORY.md > Decisions")
                        .createdAt(Instant.parse("2026-11-20T09:00:00Z")).scope(Scope.project("billing")).build(),
                Memory.builder("a note").id("n1").source("notes/x.md")
                        .createdAt(Instant.parse("2026-11-21T09:00:00Z")).tags("db", "ops").build());

        assertThat(ids(memfas("list", "--json"))).containsExactly("n1", "d2", "d1");
        assertThat(ids(memfas("list", "--json", "--kind", "decision"))).containsExactly("d2", "d1");
        assertThat(ids(memfas("list", "--json", "--since", "2026-11-01"))).containsExactly("n1", "d2");
        assertThat(ids(memfas("list", "--json", "--until", "2026-11-20"))).containsExactly("d2", "d1");
        assertThat(ids(memfas("list", "--json", "--scope", "project:billing"))).containsExactly("d2");
        assertThat(ids(memfas("list", "--json", "--tag", "db", "--tag", "ops"))).containsExactly("n1");
        assertThat(ids(memfas("list", "--json", "--source", "MEMORY.md"))).containsExactly("d2", "d1");
        assertThat(ids(memfas("list", "--json", "--limit", "2", "--page", "2"))).containsExactly("d1");
        Run text = memfas("list", "--limit", "2");
        assertThat(text.out()).contains("2026-11-21  n1").contains("2 of 3 matching memories, page 1 of 2 (next:"
                + " --page 2)");
        Run bad = memfas("list", "--since", "yesterday");
        assertThat(bad.exit()).isEqualTo(Main.INPUT);
        assertThat(bad.err().strip())
                .isEqualTo("memfas: --since must be YYYY-MM-DD or an ISO-8601 date-time: 'yesterday'");
    }

    private static List<String> ids(Run r) {
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> ids = new ArrayList<>();
        for (String line : r.out().split("\n")) {
            if (!line.isBlank()) {
                ids.add(JSON.readTree(line).get("id").asString());
            }
        }
        return ids;
    }

    @Test
    void show_printsEveryField_andAccessStatistics() {
        seed(Memory.builder("Grafana lives at ops.example").id("g1").kind("fact").tags("ops").author("ana")
                .metadata("line", "12").createdAt(Instant.parse("2026-11-20T09:00:00.123456789Z")).build());

        JsonNode m = JSON.readTree(memfas("show", "g1", "--json").out());
        assertThat(m.get("text").asString()).isEqualTo("Grafana lives at ops.example");
        assertThat(m.get("created_at").asString()).isEqualTo("2026-11-20T09:00:00.123456789Z");
        assertThat(m.get("metadata").get("line").asString()).isEqualTo("12");
        assertThat(m.get("access_count").asLong()).isZero();
        assertThat(memfas("show", "g1").out()).contains("kind:             fact").contains("author:           ana")
                .endsWith("Grafana lives at ops.example\n");
        Run missing = memfas("show", "nope");
        assertThat(missing.exit()).isEqualTo(Main.INPUT);
        assertThat(missing.err().strip()).isEqualTo("memfas: no memory with id nope");
    }

    // ---------------------------------------------------------------- context, recall

    @Test
    void context_changesNothingByDefault_recordOptsIn_explainGivesDatesALegendAndAReasonPerDrop() {
        Instant recent = Instant.now().minusSeconds(60);
        seed(Memory.builder("Kafka retention is seven days.").id("a").createdAt(recent).build(),
                Memory.builder("kafka retention is SEVEN days").id("copy")
                        .createdAt(Instant.parse("2026-11-02T00:00:00Z")).build(),
                Memory.builder("Lunch is at noon.").id("lunch").createdAt(Instant.now()).build());

        Run explained = memfas("context", "kafka retention days", "--explain");

        assertThat(explained.exit()).as(explained.err()).isZero();
        assertThat(explained.out()).contains("included:").contains("2026-11-02").contains("legend:")
                .contains("dropped (best first):").contains("duplicate of a");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(db())) {
            assertThat(store.get(Memory.DEFAULT_NAMESPACE, "a").orElseThrow().accessCount()).isZero();
        }
        JsonNode json = JSON.readTree(memfas("context", "kafka retention days", "--json", "--record").out());
        assertThat(json.get("items").get(0).get("id").asString()).isEqualTo("a");
        assertThat(json.get("items").get(0).get("created_at").asString()).isEqualTo(recent.toString());
        assertThat(json.get("dropped").toString()).contains("\"id\":\"copy\",\"created_at\":\"2026-11-02T00:00:00Z\"")
                .contains("\"reason\":\"duplicate\"").contains("\"duplicate_of\":\"a\"");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(db())) {
            assertThat(store.get(Memory.DEFAULT_NAMESPACE, "a").orElseThrow().accessCount()).isEqualTo(1);
        }
        assertThat(memfas("recall", "kafka").out()).contains("2026-11-02  copy");
        assertThat(JSON.readTree(memfas("recall", "kafka", "--json", "--limit", "1").out()).get("id").asString())
                .isEqualTo("a");
    }

    // ---------------------------------------------------------------- export, import, backup

    @Test
    void exportAndImport_roundTripEveryFieldExactly_inBothFormats() throws Exception {
        Memory hostile = Memory.builder("---\nline two\r\n<memory id=\"x\">&amp; \"quotes\" é 😀 \u2028 tail")
                .id("ids/../with spaces").source("notes/a.md > H").kind("decision").scope(Scope.language("go"))
                .tags("a", "b c").author("ana").createdAt(Instant.parse("2026-11-20T09:00:00.123456789Z"))
                .updatedAt(Instant.parse("2026-11-21T09:00:00Z")).pinned(true).importance(0.75)
                .metadata(Map.of("k", "v: \"x\"", "n", "1")).expiresAt(Instant.parse("2027-01-01T00:00:00Z"))
                .validFrom(Instant.parse("2026-11-19T00:00:00Z")).supersedes(List.of("older"))
                .recordedAt(Instant.parse("2026-11-21T09:00:00.5Z")).build();
        Memory plain = Memory.builder("no trailing newline").id("p").createdAt(Instant.parse("2026-11-01T00:00:00Z"))
                .recordedAt(Instant.parse("2026-11-03T00:00:00Z")).archivedAt(Instant.parse("2026-11-04T00:00:00Z"))
                .build();
        Memory lone = Memory.builder("lone \ud800 surrogate").id("s").createdAt(Instant.parse("2026-11-02T00:00:00Z"))
                .recordedAt(Instant.parse("2026-11-03T00:00:00Z")).build();
        seed(hostile, plain, lone);

        for (String format : List.of("jsonl", "markdown")) {
            Path out = dir.resolve("export-" + format + (format.equals("jsonl") ? ".jsonl" : ""));
            Run export = memfas("export", "--format", format, "--output", out.toString());
            assertThat(export.exit()).as(export.err()).isZero();
            Path copy = dir.resolve("copy-" + format + ".db");
            Run imported = raw("import", out.toString(), "--db", copy.toString(), "--model", "none");
            assertThat(imported.exit()).as(imported.err()).isZero();
            assertThat(imported.out()).contains("imported 3 memories");
            try (SqliteMemoryStore store = SqliteMemoryStore.open(copy)) {
                for (Memory m : List.of(hostile, plain, lone)) {
                    assertThat(store.get(Memory.DEFAULT_NAMESPACE, m.id()).orElseThrow().memory()).as(format)
                            .isEqualTo(m);
                }
            }
        }
        try (var files = Files.list(dir.resolve("export-markdown"))) {
            assertThat(files.map(p -> p.getFileName().toString())).hasSize(3)
                    .allMatch(n -> n.endsWith(".md") && !n.contains("/") && !n.startsWith("."));
        }
    }

    @Test
    void import_ofAMalformedLine_storesNothing_andNamesTheLineAndKey() throws Exception {
        Path file = Files.writeString(dir.resolve("bad.jsonl"), """
                {"id":"ok","text":"fine","created_at":"2026-11-01T00:00:00Z"}
                {"id":"bad","text":"x","colour":"blue"}
                """);

        Run r = memfas("import", file.toString());

        assertThat(r.exit()).isEqualTo(Main.INPUT);
        assertThat(r.err()).contains("bad.jsonl line 2: unknown key 'colour'");
        assertThat(db()).doesNotExist();
    }

    @Test
    void backup_writesAConsistentCopy_andRefusesToOverwrite() {
        seed(Memory.builder("kept").id("k").createdAt(Instant.EPOCH).build());
        Path copy = dir.resolve("backup.db");

        assertThat(memfas("backup", copy.toString()).exit()).isZero();
        try (SqliteMemoryStore store = SqliteMemoryStore.open(copy)) {
            assertThat(store.get(Memory.DEFAULT_NAMESPACE, "k")).isPresent();
        }
        Run again = memfas("backup", copy.toString());
        assertThat(again.exit()).isEqualTo(Main.INPUT);
        assertThat(again.err()).contains("backup target already exists");
    }

    @Test
    void reportUsage_recordsKnownIds_andNamesUnknownOnes() {
        seed(Memory.builder("kept").id("k").createdAt(Instant.EPOCH).build());

        Run r = memfas("report-usage", "k", "ghost");

        assertThat(r.exit()).isEqualTo(Main.INPUT);
        assertThat(r.out()).contains("recorded 1 as helpful: k");
        assertThat(r.err().strip()).isEqualTo("memfas: no memory with id ghost");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(db())) {
            assertThat(store.get(Memory.DEFAULT_NAMESPACE, "k").orElseThrow().accessCount()).isEqualTo(1);
        }
    }

    @Test
    void index_pathsThatDoNotExist_areBadInput_andCreateNoStore() throws Exception {
        Path typo = dir.resolve("memroy");
        Path other = dir.resolve("MEMROY.md");

        Run r = memfas("index", typo.toString(), other.toString());

        assertThat(r.exit()).isEqualTo(Main.INPUT);
        assertThat(r.err().strip()).isEqualTo("memfas: no such file or directory: " + typo + ", " + other
                + " (nothing was indexed)");
        assertThat(db()).doesNotExist();
    }

    // ---------------------------------------------------------------- dates of indexed files

    @Test
    void index_datesFromFrontMatter_thenTheFileNameOrFolders_thenTheFilesOwnTime() throws Exception {
        Path notes = Files.createDirectories(dir.resolve("notes"));
        Files.writeString(notes.resolve("2026-11-03-standup.md"), "Standup notes.");
        Files.createDirectories(notes.resolve("2026/10/09"));
        Files.writeString(notes.resolve("2026/10/09/retro.md"), "Retro notes.");
        Files.writeString(notes.resolve("2026-11-04-front.md"), "---\ndate: 2026-01-02\n---\nFront wins.");
        Path undated = Files.writeString(notes.resolve("undated.md"), "Undated notes.");
        Files.setLastModifiedTime(undated, FileTime.from(Instant.parse("2025-05-05T05:05:05Z")));

        assertThat(memfas("index", notes.toString()).exit()).isZero();

        Map<String, Instant> created = new java.util.HashMap<>();
        try (SqliteMemoryStore store = SqliteMemoryStore.open(db())) {
            store.forEach(Memory.DEFAULT_NAMESPACE, MemoryFilter.all(), m -> created.put(m.text(), m.createdAt()));
        }
        assertThat(created).containsEntry("Standup notes.", Instant.parse("2026-11-03T00:00:00Z"))
                .containsEntry("Retro notes.", Instant.parse("2026-10-09T00:00:00Z"))
                .containsEntry("Front wins.", Instant.parse("2026-01-02T00:00:00Z"))
                .containsEntry("Undated notes.", Instant.parse("2025-05-05T05:05:05Z"));
    }

    @Test
    void modelNotBundled_isAnInputError_thatSaysWhatToDo() {
        Run r = raw("stats", "--db", db().toString(), "--model", "all-minilm-l6-v2");
        // stats never loads a model: the store is missing first
        assertThat(r.exit()).isEqualTo(Main.INPUT);
        Run remember = raw("remember", "x", "--db", db().toString(), "--model", "all-minilm-l6-v2");
        assertThat(remember.exit()).isEqualTo(Main.INPUT);
        assertThat(remember.err().strip()).isEqualTo("memfas: model 'all-minilm-l6-v2' is not bundled with the memfas"
                + " command (it bundles bge-small-en-v1.5-q): give a model directory with model.onnx and"
                + " tokenizer.json instead");
    }

    @Test
    void remember_withAnAuthor_isShownByHistory_asWrittenBy() {
        assertThat(memfas("remember", "We moved the standup to 9:30.", "--id", "standup", "--author", "Caroline")
                .exit()).isZero();

        Run history = memfas("history", "standup");

        assertThat(history.out()).contains("Caroline").doesNotContain("unknown");
        assertThat(memfas("remember", "x", "--author", " ").exit()).isEqualTo(Main.INPUT);
    }

    @Test
    void context_withABaseline_logsTheTokensSaved() throws Exception {
        seed(Memory.builder("Deploys happen on Tuesdays.").id("d").createdAt(Instant.EPOCH).build());

        assertThat(memfas("context", "when do deploys happen", "--baseline", "5000").exit()).isZero();

        String line = Files.readAllLines(dir.resolve("telemetry.jsonl")).get(0);
        assertThat(line).contains("\"baseline_tokens\":5000").contains("\"tokens_saved\":");
        assertThat(memfas("context", "q", "--baseline", "-1").exit()).isEqualTo(Main.INPUT);
    }
}
