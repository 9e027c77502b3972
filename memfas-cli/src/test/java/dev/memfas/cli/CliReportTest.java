package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Memory;
import dev.memfas.telemetry.TurnTelemetry;
import dev.memfas.telemetry.UsageTelemetry;
import dev.memfas.core.Memfas;
import dev.memfas.core.telemetry.TelemetryLog;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code memfas report}: the page's numbers, checked against the telemetry log they come from. */
final class CliReportTest {
    private static final Pattern NUMBER = Pattern.compile("data-k=\"([^\"]+)\">([^<]*)<");

    @TempDir
    Path dir;

    /**
     * Two days of turns in two sessions, with baselines, and usage reports after some of them: what one session found
     * helpful, what another did not, and a report that names a memory the turn did not include.
     */
    private Path writeTelemetry(Path db, Path log) {
        TickingClock clock = new TickingClock(Instant.parse("2026-11-20T09:00:00Z"));
        try (ContextCurator curator = Memfas.newBuilder().store(SqliteMemoryStore.open(db)).clock(clock)
                .telemetry(log).build()) {
            curator.rememberAll(List.of(
                    Memory.builder("Billing deploys blue-green on Fridays.").id("deploy").build(),
                    Memory.builder("Kafka retention is seven days.").id("kafka").build(),
                    Memory.builder("Never run <script>alert('x')</script> & \"migrations\" on Friday.").id("xss")
                            .build(),
                    Memory.builder("The invoice service retries webhooks five times.").id("webhooks").build()));
            String[] queries = {"how does billing deploy?", "kafka retention", "can we run migrations on friday?",
                "webhook retries for invoices", "billing deploy day"};
            for (int i = 0; i < 10; i++) {
                clock.now = clock.now.plus(Duration.ofHours(i == 5 ? 20 : 1));
                String session = i % 2 == 0 ? "a" : "b";
                ContextResponse r = curator.getContext(ContextRequest.builder(queries[i % queries.length])
                        .sessionId(session).baselineTokens(1_000 + 100 * i).tokenBudget(60).build());
                clock.now = clock.now.plusSeconds(30);
                if (i % 3 == 0 && !r.memoryIds().isEmpty()) {
                    curator.upkeep().reportUsage("default", session, List.of(r.memoryIds().get(0)), true);
                } else if (i % 3 == 1 && !r.memoryIds().isEmpty()) {
                    curator.upkeep().reportUsage("default", session, r.memoryIds(), false);
                } else if (i == 8) {
                    curator.upkeep().reportUsage("default", session, List.of("webhooks"), true);
                }
            }
            // Two conversations, whose facts memfas's own extractor takes without a model.
            for (String chat : List.of("chat-1", "chat-2")) {
                curator.memories().remember(dev.memfas.Conversation.of(chat, List.of(
                        dev.memfas.Conversation.Message.of("user", "I prefer aisle seats on long flights."))), false);
            }
        }
        return log;
    }

    @Test
    void thePagesNumbers_areTheTelemetrys_andItStandsAlone() throws Exception {
        Path db = dir.resolve("m.db");
        Path log = writeTelemetry(db, dir.resolve("telemetry.jsonl"));
        Path out = dir.resolve("out/report.html");

        CliRun r = CliRun.of(db, "report", "--file", log.toString(), "--out", out.toString());

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("10 turns");
        String html = Files.readString(out);
        List<TurnTelemetry> turns = TelemetryLog.read(log);
        List<UsageTelemetry> usage = TelemetryLog.readUsage(log);
        assertThat(turns).hasSize(10);
        assertThat(usage).isNotEmpty();

        assertThat(number(html, "turns")).isEqualTo("10");
        assertThat(number(html, "curated_tokens"))
                .isEqualTo(Long.toString(turns.stream().mapToLong(TurnTelemetry::curatedTokens).sum()));
        assertThat(number(html, "tokens_saved"))
                .isEqualTo(Long.toString(turns.stream().mapToLong(t -> t.tokensSaved().getAsInt()).sum()));
        assertThat(number(html, "topic_shifts"))
                .isEqualTo(Long.toString(turns.stream().filter(TurnTelemetry::topicShifted).count()));
        assertThat(number(html, "mean_budget_use")).isEqualTo(String.format(Locale.ROOT, "%.0f%%",
                100 * turns.stream().mapToDouble(t -> (double) t.curatedTokens() / t.budget()).average()
                        .orElseThrow()));
        // Per day: the first five turns on the 20th (10:00 to 14:00), the rest on the 21st.
        assertThat(number(html, "2026-11-20.turns")).isEqualTo("5");
        assertThat(number(html, "2026-11-21.turns")).isEqualTo("5");
        assertThat(number(html, "2026-11-21.curated_tokens")).isEqualTo(Long.toString(turns.subList(5, 10)
                .stream().mapToLong(TurnTelemetry::curatedTokens).sum()));
        assertThat(number(html, "2026-11-21.baseline_tokens"))
                .isEqualTo(Long.toString(1_500 + 1_600 + 1_700 + 1_800 + 1_900));

        // Precision, counted here from the log by its definition: each report belongs to its session's latest turn.
        long included = 0;
        long helpful = 0;
        for (int i = 0; i < turns.size(); i++) {
            TurnTelemetry t = turns.get(i);
            Instant next = nextInSession(turns, i);
            Set<String> said = new HashSet<>();
            boolean reported = false;
            for (UsageTelemetry u : usage) {
                if (u.sessionId().equals(t.sessionId()) && !u.timestamp().isBefore(t.timestamp())
                        && (next == null || u.timestamp().isBefore(next))) {
                    reported = true;
                    if (u.helpful()) {
                        said.addAll(u.memoryIds());
                    }
                }
            }
            if (reported) {
                included += t.includedMemoryIds().size();
                helpful += t.includedMemoryIds().stream().filter(said::contains).count();
            }
        }
        assertThat(included).isPositive();
        assertThat(number(html, "precision"))
                .isEqualTo(String.format(Locale.ROOT, "%.0f%%", 100.0 * helpful / included));

        // Most included memories, by their text, escaped; and the count of each against the log.
        long deployIncluded = turns.stream().filter(t -> t.includedMemoryIds().contains("deploy")).count();
        assertThat(number(html, "included.default/deploy")).isEqualTo(Long.toString(deployIncluded));
        assertThat(html).contains("Billing deploys blue-green on Fridays.");
        assertThat(html)
                .contains("Never run &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;migrations&quot;")
                .doesNotContain("<script");

        // The facts taken from conversations: one, then the same again (found stored, counted all the same).
        assertThat(number(html, "facts")).isEqualTo("2");
        assertThat(html).contains("from 2 conversations (0 failed); model tokens 0 read, 0 written; cost 0.0000");

        // Self-contained: no script, nothing to fetch.
        assertThat(html).doesNotContain("<script").doesNotContain("src=").doesNotContain("<link")
                .doesNotContain("@import").doesNotContain("url(");
        assertThat(html.replace("http://www.w3.org/2000/svg", "")).doesNotContain("http://").doesNotContain("https://");
        assertThat(html).contains("<svg");
    }

    @Test
    void since_leavesOlderTurnsOut_andAnEmptyPeriodSaysSo() throws Exception {
        Path db = dir.resolve("m.db");
        Path log = writeTelemetry(db, dir.resolve("telemetry.jsonl"));
        Path out = dir.resolve("recent.html");

        CliRun r = CliRun.of(db, "report", "--file", log.toString(), "--since", "1h", "--out", out.toString());

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(Files.readString(out)).contains("No turns in this period.").contains("The last 1h");
    }

    @Test
    void withoutALog_orWithABadSince_itSaysWhat() {
        CliRun missing = CliRun.of(dir.resolve("m.db"), "report", "--file", dir.resolve("none.jsonl").toString());
        CliRun badSince = CliRun.of(dir.resolve("m.db"), "report", "--file", dir.resolve("none.jsonl").toString(),
                "--since", "soon");

        CliRun off = CliRun.of(dir.resolve("m.db"), "report", "--no-telemetry");
        CliRun summaryOff = CliRun.of(dir.resolve("m.db"), "telemetry", "summary", "--no-telemetry");

        assertThat(missing.exit()).isEqualTo(Main.INPUT);
        assertThat(missing.err()).contains("there is no telemetry log at " + dir.resolve("none.jsonl").toAbsolutePath()
                + " yet: 'memfas context', 'memfas mcp' and 'memfas demo' write it there, or name another with --file");
        assertThat(badSince.exit()).isEqualTo(Main.INPUT);
        for (CliRun r : List.of(off, summaryOff)) {
            assertThat(r.exit()).isEqualTo(Main.INPUT);
            assertThat(r.err()).isEqualTo("memfas: telemetry is off (--no-telemetry, or 'telemetry: off' in the"
                    + " config), so there is no log to read; name one with --file" + System.lineSeparator());
        }
    }

    private static Instant nextInSession(List<TurnTelemetry> turns, int i) {
        for (int j = i + 1; j < turns.size(); j++) {
            if (turns.get(j).sessionId().equals(turns.get(i).sessionId())) {
                return turns.get(j).timestamp();
            }
        }
        return null;
    }

    private static String number(String html, String key) {
        Matcher m = NUMBER.matcher(html);
        List<String> found = new ArrayList<>();
        while (m.find()) {
            if (m.group(1).equals(key)) {
                found.add(m.group(2));
            }
        }
        assertThat(found).as("one number named " + key).hasSize(1);
        return found.get(0);
    }
}
