package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import dev.memfas.core.telemetry.TelemetryLog;
import dev.memfas.djl.DjlEmbedder;
import dev.memfas.sqlite.SqliteMemoryStore;
import dev.memfas.telemetry.TurnTelemetry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code memfas report} in Debian's headless Chromium: four days of an agent's turns, curated by the real model over a
 * SQLite file with a clock the test moves, make the telemetry log; the command turns it into the page, and the browser
 * shows it as a person would see it. The screenshot in docs/images/report.png is the one this test takes: it writes it
 * to target/screenshots, and to docs/images when run with {@code -Dmemfas.screenshots=docs}, as
 * {@link InspectorBrowserIT} does.
 */
final class ReportBrowserIT {
    private static final Path MODULE = Path.of("").toAbsolutePath();
    private static final Path IMAGES = "docs".equals(System.getProperty("memfas.screenshots"))
            ? MODULE.getParent().resolve("docs/images") : MODULE.resolve("target/screenshots");
    private static final int BUDGET = 1_024;
    private static final int DAYS = 4;
    private static final int TURNS_PER_SESSION = 14;

    /** What the agent's team wrote down, as notes in its memory files would say it. */
    private static final List<String> NOTES = List.of(
            "Billing deploys blue-green on Fridays after the change review.",
            "The billing database migrations run with Flyway before each deploy.",
            "Invoice PDFs are stored in the billing-archive bucket and kept for seven years.",
            "The invoice service retries failed webhooks five times with exponential backoff.",
            "Kafka retention on the events cluster is seven days.",
            "Consumer lag on the payments topic is fixed by smaller batches (max.poll.records 200).",
            "Priya owns authentication; ask her before changing the token lifetimes.",
            "Access tokens live 15 minutes and refresh tokens 30 days.",
            "API keys rotate every 90 days; the rotation job runs on the first Monday of the month.",
            "Use British English in customer-facing text.",
            "The staging environment is reset every night at 02:00 UTC.",
            "Feature flags live in LaunchDarkly; remove a flag within two sprints of its full rollout.",
            "The on-call rotation changes on Wednesdays at 10:00.",
            "Load tests run against staging only, never against production.",
            "The search service reindexes Elasticsearch nightly; a full reindex takes about 40 minutes.",
            "Currency amounts are stored as integer minor units, never as floating point.",
            "Tax rates come from the tax-rates service, cached for one hour.",
            "The mobile app's release train leaves every second Thursday.",
            "Errors are reported to Sentry; the billing project alerts the #billing-oncall channel.",
            "The coffee machine on floor 3 is broken; use the one on floor 2.");

    /**
     * An agent's questions, the project's and a few about the world, which its memory has nothing for; the question
     * at {@code i} is answered by the note at {@link #ANSWERED_BY}{@code [i]}, or by none (-1).
     */
    private static final List<String> QUESTIONS = List.of(
            "When do we deploy billing?",
            "What has to run before a billing deploy?",
            "Where do the invoice PDFs go and for how long?",
            "How many times are webhooks retried?",
            "How long does Kafka keep events?",
            "The payments consumer is lagging, what do we do?",
            "Who should I ask about the token lifetimes?",
            "How long do refresh tokens last?",
            "When do API keys rotate?",
            "Which spelling do we use in the customer emails?",
            "Why did my staging data disappear overnight?",
            "How do I format a date in ISO 8601 in Java?",
            "When should I remove the new checkout feature flag?",
            "Can I run the load test against production?",
            "How long does a full search reindex take?",
            "How should I store the invoice amount?",
            "Where do tax rates come from?",
            "What is the capital of Australia?",
            "Where do billing errors get reported?",
            "When does the on-call rotation change?");
    private static final int[] ANSWERED_BY = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -1, 11, 13, 14, 15, 16, -1, 18, 12};

    @TempDir
    Path dir;

    @BeforeAll
    static void screenshotsHaveAPlace() throws Exception {
        Files.createDirectories(IMAGES);
    }

    /**
     * Two sessions a day, a morning's and an afternoon's, of {@value #TURNS_PER_SESSION} turns each; each turn gives
     * the session's history so far as its baseline (a system prompt of 1,500 tokens and about 400 per exchange).
     */
    private Outcomes fourDaysOfTurns(Path db, Path log) {
        Outcomes outcomes = new Outcomes();
        TickingClock clock = new TickingClock(Instant.parse("2026-11-23T08:00:00Z"));
        DjlEmbedder embedder = DjlEmbedder.defaultModel();
        try (ContextCurator curator = Memfas.newBuilder().store(SqliteMemoryStore.open(db)).embedder(embedder)
                .owns(embedder).clock(clock).telemetry(log).build()) {
            List<Memory> notes = new ArrayList<>();
            for (int n = 0; n < NOTES.size(); n++) {
                notes.add(Memory.builder(NOTES.get(n)).id("note-" + (n + 1)).source("memory/team.md").build());
            }
            curator.rememberAll(notes);
            int asked = 0;
            for (int day = 0; day < DAYS; day++) {
                for (String half : List.of("am", "pm")) {
                    clock.now = Instant.parse("2026-11-23T08:00:00Z").plus(Duration.ofDays(day))
                            .plus(Duration.ofHours(half.equals("am") ? 1 : 5));
                    String session = "day" + (day + 1) + "-" + half;
                    for (int t = 0; t < TURNS_PER_SESSION; t++) {
                        clock.now = clock.now.plus(Duration.ofMinutes(4 + asked % 5));
                        int q = (asked * 7 + day) % QUESTIONS.size();
                        asked++;
                        ContextResponse r = curator.getContext(ContextRequest.builder(QUESTIONS.get(q))
                                .sessionId(session).tokenBudget(BUDGET).baselineTokens(1_500 + 400 * t).build());
                        clock.now = clock.now.plusSeconds(40);
                        String answer = ANSWERED_BY[q] < 0 ? null : "note-" + (ANSWERED_BY[q] + 1);
                        outcomes.count(answer, r.memoryIds());
                        // Most turns, the agent says which memories its answer used: the note that answers the
                        // question, if it was there, and not the others.
                        if (r.memoryIds().isEmpty() || asked % 4 == 0) {
                            continue;
                        }
                        List<String> unused = r.memoryIds().stream().filter(id -> !id.equals(answer)).toList();
                        if (r.memoryIds().contains(answer)) {
                            curator.upkeep().reportUsage("default", session, List.of(answer), true);
                        }
                        if (!unused.isEmpty()) {
                            curator.upkeep().reportUsage("default", session, unused, false);
                        }
                    }
                }
            }
        }
        return outcomes;
    }

    /** What the turns got: the project's questions their answer, and the questions about the world nothing. */
    private static final class Outcomes {
        int answerable;
        int answered;
        int aboutTheWorld;
        int empty;

        void count(String answer, List<String> included) {
            if (answer == null) {
                aboutTheWorld++;
                empty += included.isEmpty() ? 1 : 0;
            } else {
                answerable++;
                answered += included.contains(answer) ? 1 : 0;
            }
        }
    }

    @Test
    void theReportOfFourDays_readsInTheBrowserAsTheLogSays() throws Exception {
        Path db = dir.resolve("m.db");
        Path log = dir.resolve("telemetry.jsonl");
        Outcomes outcomes = fourDaysOfTurns(db, log);
        Path page = dir.resolve("report.html");

        CliRun run = CliRun.of(db, "report", "--file", log.toString(), "--out", page.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        List<TurnTelemetry> turns = TelemetryLog.read(log);
        assertThat(turns).hasSize(DAYS * 2 * TURNS_PER_SESSION);
        // The budget is a ceiling: the turns about the world take nothing, and the others what bears on them.
        assertThat(outcomes.answered).isEqualTo(outcomes.answerable);
        assertThat(outcomes.aboutTheWorld).isPositive();
        assertThat(outcomes.empty).isEqualTo(outcomes.aboutTheWorld);
        assertThat(turns).allMatch(t -> t.curatedTokens() <= t.budget());
        double meanUse = turns.stream().mapToDouble(t -> (double) t.curatedTokens() / t.budget()).average()
                .orElseThrow();
        assertThat(meanUse).isLessThan(0.5);

        try (HeadlessChromium chromium = new HeadlessChromium(dir, 1100, 2200)) {
            chromium.open(page.toUri().toString());
            chromium.waitFor("document.querySelectorAll('svg').length >= 5");
            assertThat(text(chromium, "[data-k=turns]")).isEqualTo(Integer.toString(turns.size()));
            assertThat(text(chromium, "[data-k=curated_tokens]"))
                    .isEqualTo(Long.toString(turns.stream().mapToLong(TurnTelemetry::curatedTokens).sum()));
            assertThat(text(chromium, "[data-k=mean_budget_use]"))
                    .isEqualTo(String.format(Locale.ROOT, "%.0f%%", 100 * meanUse));
            for (int day = 23; day < 23 + DAYS; day++) {
                assertThat(text(chromium, "[data-k='2026-11-" + day + ".turns']"))
                        .isEqualTo(Integer.toString(2 * TURNS_PER_SESSION));
            }
            assertThat(chromium.eval("document.body.innerText").asString())
                    .contains("Billing deploys blue-green on Fridays after the change review.")
                    .contains("reported helpful");
            // Every chart is drawn with a size, and nothing runs past the page's width.
            assertThat(chromium.eval("[...document.querySelectorAll('svg')].every(s => {"
                    + " const b = s.getBoundingClientRect(); return b.width > 100 && b.height > 50; })").asBoolean())
                    .isTrue();
            assertThat(chromium.eval("document.documentElement.scrollWidth <= window.innerWidth").asBoolean())
                    .isTrue();
            assertThat(chromium.eval("document.scripts.length").asInt()).isZero();
            chromium.screenshot(IMAGES.resolve("report.png"));
        }
        assertThat(Files.size(IMAGES.resolve("report.png"))).isGreaterThan(20_000);
    }

    private static String text(HeadlessChromium chromium, String selector) throws Exception {
        return chromium.eval("document.querySelector(" + HeadlessChromium.quote(selector) + ").textContent.trim()")
                .asString();
    }
}
