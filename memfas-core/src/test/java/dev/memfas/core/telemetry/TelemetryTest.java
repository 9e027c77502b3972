package dev.memfas.core.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.MemfasException;
import dev.memfas.Memory;
import dev.memfas.ScoreBreakdown;
import dev.memfas.ScoringWeights;
import dev.memfas.Trigger;
import dev.memfas.core.Memfas;
import dev.memfas.core.text.JTokkitTokenizer;
import dev.memfas.telemetry.TelemetryListener;
import dev.memfas.telemetry.TurnTelemetry;
import dev.memfas.telemetry.UsageTelemetry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class TelemetryTest {
    private static final Instant NOW = Instant.parse("2026-11-01T12:00:00Z");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    // ---------------------------------------------------------------- the JSONL log

    @Test
    void everyTurn_writesOneLineThatParsesAsJson_withTheDesignFields() throws Exception {
        Path file = dir.resolve("logs/telemetry.jsonl");
        try (ContextCurator curator = Memfas.newBuilder().clock(Clock.fixed(NOW, ZoneOffset.UTC))
                .telemetry(file).build()) {
            curator.rememberAll(List.of(Memory.builder("kafka retention \"seven\" days\n<x>").id("a")
                    .createdAt(NOW).build()));
            curator.triggers().add(Trigger.of("kafka", "check lag"));
            curator.getContext(ContextRequest.builder("kafka retention \u2028 \ud800?").sessionId("s1")
                    .baselineTokens(5000).task("debugging the \"lag\" alert").build());
            curator.getContext("kafka again", "s1");
        }

        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        // Two turns, then the session's summary as the curator closed.
        assertThat(lines).hasSize(3);
        assertThat(JSON.readTree(lines.get(2)).get("event").asText()).isEqualTo("session_summary");
        JsonNode first = JSON.readTree(lines.get(0));
        assertThat(first.get("timestamp").asText()).isEqualTo("2026-11-01T12:00:00Z");
        assertThat(first.get("session").asText()).isEqualTo("s1");
        assertThat(first.get("turn").asInt()).isEqualTo(1);
        assertThat(first.get("query").asText()).isEqualTo("kafka retention \u2028 \ud800?");
        assertThat(first.get("task").asText()).isEqualTo("debugging the \"lag\" alert");
        assertThat(TelemetryCodec.fromJson(lines.get(0)).task()).isEqualTo("debugging the \"lag\" alert");
        assertThat(first.get("query_tokens").asInt()).isPositive();
        assertThat(first.get("topic").asText()).isNotEmpty();
        assertThat(first.get("topic_shift").asBoolean()).isFalse();
        assertThat(first.get("baseline_tokens").asInt()).isEqualTo(5000);
        int curated = first.get("curated_tokens").asInt();
        assertThat(curated).isPositive();
        assertThat(first.get("tokens_saved").asInt()).isEqualTo(5000 - curated);
        assertThat(first.get("compression_ratio").asDouble()).isCloseTo(curated / 5000.0,
                org.assertj.core.data.Offset.offset(1e-6));
        assertThat(first.get("memories_scored").asInt()).isEqualTo(1);
        assertThat(first.get("memories_included").asInt()).isEqualTo(1);
        assertThat(first.get("memories_dropped").asInt()).isZero();
        assertThat(first.get("triggers_matched").get(0).asText()).isEqualTo("kafka");
        assertThat(first.get("latency_ms").asDouble()).isNotNegative();
        assertThat(first.get("top_memories").get(0).get("id").asText()).isEqualTo("a");
        assertThat(first.get("top_memories").get(0).get("factors").get("lexical").asDouble()).isEqualTo(1.0);
        assertThat(first.get("weights").get("semantic").asDouble()).isEqualTo(0.60);

        JsonNode second = JSON.readTree(lines.get(1));
        assertThat(second.get("turn").asInt()).isEqualTo(2);
        assertThat(second.has("baseline_tokens")).isFalse();
        assertThat(second.has("task")).isFalse();
        assertThat(second.has("tokens_saved")).isFalse();
        assertThat(second.has("compression_ratio")).isFalse();
    }

    @Test
    void redactQueries_leavesTheQueryOut_keepsItsTokenCount() throws Exception {
        Path file = dir.resolve("t.jsonl");
        try (ContextCurator curator = Memfas.newBuilder().telemetry(file).redactQueries(true).build()) {
            curator.getContext(ContextRequest.builder("my secret question").sessionId("s").task("secret task").build());
        }
        JsonNode line = JSON.readTree(Files.readAllLines(file).get(0));
        assertThat(line.has("query")).isFalse();
        assertThat(line.has("task")).isFalse();
        assertThat(line.get("query_tokens").asInt()).isEqualTo(JTokkitTokenizer.cl100k().count("my secret question"));
        assertThat(Files.readString(file)).doesNotContain("secret");
    }

    @Test
    void rotation_startsANewFileWhenTheLimitWouldBePassed() throws Exception {
        Path file = dir.resolve("t.jsonl");
        try (ContextCurator curator = Memfas.newBuilder().telemetry(file).telemetryRotation(2048, 2).build()) {
            for (int i = 0; i < 40; i++) {
                curator.getContext("question number " + i, "s");
            }
        }
        assertThat(Files.size(file)).isLessThanOrEqualTo(2048);
        assertThat(dir.resolve("t.jsonl.1")).exists();
        assertThat(dir.resolve("t.jsonl.2")).exists();
        assertThat(dir.resolve("t.jsonl.3")).doesNotExist();
        assertThat(Files.size(dir.resolve("t.jsonl.1"))).isLessThanOrEqualTo(2048);
        for (String line : Files.readAllLines(dir.resolve("t.jsonl.1"))) {
            assertThat(JSON.readTree(line).get("session").asText()).isEqualTo("s");
        }
    }

    @Test
    void telemetryLog_readsBackWhatWasWritten() {
        Path file = dir.resolve("t.jsonl");
        List<TurnTelemetry> seen = new ArrayList<>();
        try (ContextCurator curator = Memfas.newBuilder().clock(Clock.fixed(NOW, ZoneOffset.UTC)).telemetry(file)
                .telemetryListener(seen::add).build()) {
            curator.remember(Memory.builder("kafka retention").id("a").source("ops/kafka.md").createdAt(NOW).build());
            curator.getContext(ContextRequest.builder("kafka").sessionId("s").baselineTokens(900).build());
        }

        List<TurnTelemetry> read = TelemetryLog.read(file);

        assertThat(read).hasSize(1);
        TurnTelemetry expected = seen.get(0);
        TurnTelemetry got = read.get(0);
        assertThat(got.sessionId()).isEqualTo(expected.sessionId());
        assertThat(got.curatedTokens()).isEqualTo(expected.curatedTokens());
        assertThat(got.baselineTokens()).isEqualTo(OptionalInt.of(900));
        assertThat(got.includedMemoryIds()).containsExactly("a");
        assertThat(got.topMemories().get(0).factors().lexical()).isEqualTo(1.0);
        assertThat(got.topMemories().get(0).source()).isEqualTo("ops/kafka.md");
        assertThat(got.topMemories().get(0).snippet()).isEqualTo("kafka retention");
        assertThat(got.topMemories().get(0).snippet()).isEqualTo(expected.topMemories().get(0).snippet());
        assertThat(got.weights()).isEqualTo(ScoringWeights.DEFAULT);
    }

    @Test
    void aTopMemorysSnippet_isCutToItsLength_andLeftOutWhenQueriesAreRedacted() {
        String text = "The billing service ".repeat(20);
        TurnTelemetry.TopMemory top = new TurnTelemetry.TopMemory("m", 1, ScoreBreakdown.ZERO, "", text);
        assertThat(top.snippet()).hasSize(TurnTelemetry.TopMemory.SNIPPET_CHARS).endsWith("\u2026")
                .startsWith("The billing service The");

        List<TurnTelemetry> seen = new ArrayList<>();
        try (ContextCurator curator = Memfas.newBuilder().clock(Clock.fixed(NOW, ZoneOffset.UTC)).redactQueries(true)
                .telemetryListener(seen::add).build()) {
            curator.remember(Memory.builder("kafka retention").id("a").source("ops").createdAt(NOW).build());
            curator.getContext("kafka", "s");
        }
        assertThat(seen.get(0).topMemories().get(0).snippet()).isEmpty();
        assertThat(seen.get(0).topMemories().get(0).source()).isEqualTo("ops");
    }

    @Test
    void usageReports_areLoggedBesideTheTurns_andReadBackApart() {
        Path file = dir.resolve("u.jsonl");
        List<UsageTelemetry> heard = new ArrayList<>();
        TelemetryListener listener = new TelemetryListener() {
            @Override
            public void onTurn(TurnTelemetry turn) {}

            @Override
            public void onUsage(UsageTelemetry usage) {
                heard.add(usage);
            }
        };
        try (ContextCurator curator = Memfas.newBuilder().clock(Clock.fixed(NOW, ZoneOffset.UTC)).telemetry(file)
                .telemetryListener(listener).build()) {
            curator.rememberAll(List.of(Memory.builder("kafka retention").id("a").createdAt(NOW).build(),
                    Memory.builder("kafka lag alert").id("b").createdAt(NOW).build()));
            curator.getContext(ContextRequest.builder("kafka").sessionId("s\"1").build());
            curator.upkeep().reportUsage("default", "s\"1", List.of("a", "ghost"), true);
            curator.upkeep().reportUsage("default", "s\"1", List.of("b"), false);
            curator.upkeep().reportUsage("default", "s\"1", List.of("ghost"), true); // records nothing: no line
            curator.getContext(ContextRequest.builder("kafka lag").sessionId("s\"1").build());
        }

        List<UsageTelemetry> read = TelemetryLog.readUsage(file);

        assertThat(read).containsExactly(new UsageTelemetry(NOW, "default", "s\"1", List.of("a"), true),
                new UsageTelemetry(NOW, "default", "s\"1", List.of("b"), false));
        assertThat(heard).isEqualTo(read);
        assertThat(TelemetryLog.read(file)).hasSize(2);
        assertThat(TelemetryLog.summarize(file).turns()).isEqualTo(2);
    }

    @Test
    void telemetryLog_badLine_namesFileAndLine() throws Exception {
        Path file = dir.resolve("bad.jsonl");
        Files.writeString(file, "{\"not\": \"telemetry\"}\n");

        assertThatThrownBy(() -> TelemetryLog.read(file))
                .isInstanceOf(MemfasException.class)
                .hasMessageContaining("bad.jsonl line 1 is not a telemetry line");
    }

    // ---------------------------------------------------------------- listeners

    @Test
    void throwingListener_isLogged_andNeverBreaksGetContext() {
        AtomicInteger after = new AtomicInteger();
        java.io.ByteArrayOutputStream logged = new java.io.ByteArrayOutputStream();
        java.io.PrintStream console = System.err;
        try (ContextCurator curator = Memfas.newBuilder()
                .telemetryListener(t -> {
                    throw new IllegalStateException("listener bug");
                })
                .telemetryListener(t -> after.incrementAndGet())
                .build()) {
            curator.remember(Memory.builder("kafka").build());

            // slf4j-simple writes to whatever System.err is when it logs: the warning is read here, not printed.
            System.setErr(new java.io.PrintStream(logged, true, java.nio.charset.StandardCharsets.UTF_8));
            try {
                assertThat(curator.getContext("kafka", "s").items()).hasSize(1);
            } finally {
                System.setErr(console);
            }
            assertThat(after.get()).isEqualTo(1);
        }
        assertThat(logged.toString(java.nio.charset.StandardCharsets.UTF_8))
                .contains("WARN dev.memfas.core.curator.MemoryCurator - telemetry listener")
                .contains("failed; ignoring it for this turn")
                .contains("java.lang.IllegalStateException: listener bug");
    }

    // ---------------------------------------------------------------- summary

    @Test
    void summary_percentilesAndTotals_areRightOnKnownInputs() {
        List<TurnTelemetry> turns = new ArrayList<>();
        for (int i = 1; i <= 100; i++) {
            OptionalInt baseline = i <= 5 ? OptionalInt.of(1000) : i <= 10 ? OptionalInt.of(2000) : OptionalInt.empty();
            turns.add(turn(i % 3 == 0 ? "s1" : "s2", i, baseline,
                    Duration.ofMillis(i), i <= 60 ? "kafka lag" : "pasta", List.of("a", i % 2 == 0 ? "b" : "c")));
        }
        java.util.Collections.shuffle(turns, new java.util.Random(7));

        TelemetrySummary s = TelemetrySummary.of(turns);

        assertThat(s.turns()).isEqualTo(100);
        assertThat(s.sessions()).isEqualTo(2);
        assertThat(s.latencyP50()).isEqualTo(Duration.ofMillis(50));
        assertThat(s.latencyP95()).isEqualTo(Duration.ofMillis(95));
        assertThat(s.latencyMax()).isEqualTo(Duration.ofMillis(100));
        assertThat(s.curatedTokens()).isEqualTo(100L * 100);
        assertThat(s.baselineTokens()).isEqualTo(15_000);
        assertThat(s.tokensSaved()).isEqualTo(15_000 - 10 * 100);
        assertThat(s.compressionRatio().getAsDouble()).isCloseTo(1_000 / 15_000.0, within(1e-12));
        assertThat(s.bestCompression()).isEqualTo(OptionalDouble.of(0.05));
        assertThat(s.worstCompression()).isEqualTo(OptionalDouble.of(0.1));
        assertThat(s.memoriesScored()).isEqualTo(500);
        assertThat(s.memoriesIncluded()).isEqualTo(200);
        assertThat(s.memoriesDropped()).isEqualTo(300);
        assertThat(s.latencyAverage()).isEqualTo(Duration.ofMillis(50).plusNanos(500_000));
        assertThat(s.topics()).containsExactly(java.util.Map.entry("kafka lag", 60), java.util.Map.entry("pasta", 40));
        assertThat(s.mostUsedMemories()).containsExactly(java.util.Map.entry("a", 100), java.util.Map.entry("b", 50),
                java.util.Map.entry("c", 50));
    }

    @Test
    void summary_percentiles_smallSets() {
        List<Duration> one = List.of(Duration.ofMillis(7));
        List<Duration> four = List.of(Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(3),
                Duration.ofMillis(4));
        assertThat(TelemetrySummary.percentile(one, 95)).isEqualTo(Duration.ofMillis(7));
        assertThat(TelemetrySummary.percentile(four, 50)).isEqualTo(Duration.ofMillis(2));
        assertThat(TelemetrySummary.percentile(four, 95)).isEqualTo(Duration.ofMillis(4));
        assertThat(TelemetrySummary.percentile(List.of(), 50)).isEqualTo(Duration.ZERO);
    }

    private static TurnTelemetry turn(String session, int n, OptionalInt baseline, Duration latency, String topic,
            List<String> included) {
        int curated = 100;
        return new TurnTelemetry(NOW, session, n, "default", "q", null, 1, topic, false, 0.8, baseline, curated, 2000,
                5,
                included.size(), 3, List.of(),
                baseline.isPresent() ? OptionalInt.of(baseline.getAsInt() - curated) : OptionalInt.empty(),
                baseline.isPresent() ? OptionalDouble.of((double) curated / baseline.getAsInt())
                        : OptionalDouble.empty(),
                latency, included,
                List.of(new TurnTelemetry.TopMemory(included.get(0), 0.5, ScoreBreakdown.ZERO, "notes.md", "A note.")),
                ScoringWeights.DEFAULT);
    }
}
