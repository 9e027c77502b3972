package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextItem;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Memory;
import dev.memfas.core.text.JTokkitTokenizer;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Relevant memories of one source and day under one heading: the format, the order, and the exact count. */
final class DayHeadingsTest {
    private static final Instant NOW = Instant.parse("2026-11-24T08:30:00Z");
    private static final Instant SESSION = Instant.parse("2026-09-14T18:00:00Z");
    private static final JTokkitTokenizer TOKENS = JTokkitTokenizer.cl100k();

    private static Memory turn(String id, String text, int minute, String source) {
        return Memory.builder(text).id(id).source(source).createdAt(SESSION.plusSeconds(60L * minute)).build();
    }

    @Test
    void turnsOfOneConversationAndDay_shareAHeading_inTheOrderTheyWereWritten_andTheCountIsExact() {
        try (ContextCurator curator = Memfas.newBuilder().clock(new MutableClock(NOW)).build()) {
            curator.rememberAll(List.of(
                    turn("t3", "Assistant: the invoice archive keeps invoice PDFs for seven years.", 3, "chat \"41\""),
                    turn("t1", "User: where do the invoice PDFs go?", 1, "chat \"41\""),
                    turn("t2", "Assistant: invoice PDFs go to the billing-archive bucket.", 2, "chat \"41\""),
                    Memory.builder("The invoice job runs at night.").id("job")
                            .createdAt(Instant.parse("2026-10-01T09:00:00Z")).build()));

            ContextResponse r = curator.getContext(ContextRequest.builder("invoice PDFs archive").tokenBudget(2000)
                    .build());

            assertThat(r.memoryIds()).containsExactlyInAnyOrder("t1", "t2", "t3", "job");
            String context = r.context();
            // The heading says the date and source once (the source escaped as any attribute), its items only their
            // ids, each a line, oldest first; the memory alone on its day says its own date.
            assertThat(context).contains("<day date=\"2026-09-14\" source=\"chat &quot;41&quot;\">\n"
                    + "[t1] User: where do the invoice PDFs go?\n"
                    + "[t2] Assistant: invoice PDFs go to the billing-archive bucket.\n"
                    + "[t3] Assistant: the invoice archive keeps invoice PDFs for seven years.\n"
                    + "</day>\n");
            assertThat(context).contains("<memory id=\"job\" date=\"2026-10-01\">The invoice job runs at night.</memory>")
                    .doesNotContain("<day date=\"2026-10-01\"");
            assertThat(r.tokensUsed()).isEqualTo(TOKENS.count(context));
            // Each item's tokens are those of its line as written.
            for (ContextItem item : r.items()) {
                String line = context.lines().filter(l -> l.startsWith("<memory id=\"" + item.memoryId() + "\"")
                        || l.startsWith("[" + item.memoryId() + "] ")).findFirst().orElseThrow() + "\n";
                assertThat(item.tokens()).as(item.memoryId()).isEqualTo(TOKENS.count(line));
            }
        }
    }

    @Test
    void underAHeading_itemsReadAsWritten_pinnedOnesToo_andOtherSourcesOfTheSameDayStandApart() {
        try (ContextCurator curator = Memfas.newBuilder().clock(new MutableClock(NOW)).build()) {
            curator.rememberAll(List.of(
                    turn("a", "deploy notes: canary first", 1, "notes"),
                    turn("b", "deploy notes: then the rest", 2, "notes"),
                    Memory.builder("deploy rule: never on Fridays").id("rule").source("notes").pinned(true)
                            .createdAt(SESSION.plusSeconds(600)).build(),
                    turn("c", "deploy chat: who deploys today?", 3, "chat")));

            ContextResponse r = curator.getContext(ContextRequest.builder("deploy").tokenBudget(2000).build());

            String context = r.context();
            assertThat(context).contains("<day date=\"2026-09-14\" source=\"notes\">\n[a] deploy notes");
            assertThat(context.indexOf("[a]")).isLessThan(context.indexOf("[b]"));
            assertThat(context.indexOf("[b]")).isLessThan(context.indexOf("[rule]"));
            assertThat(context).contains("<memory id=\"c\" source=\"chat\" date=\"2026-09-14\">");
            assertThat(r.tokensUsed()).isEqualTo(TOKENS.count(context));
        }
    }

    @Test
    void underAHeading_anItemIsALineOnlyIfNoTextCanPassForAnother_andTheCountIsExactForAnyText() {
        try (ContextCurator curator = Memfas.newBuilder().clock(new MutableClock(NOW)).build()) {
            curator.rememberAll(List.of(
                    turn("a", "deploy notes: canary first", 1, "notes"),
                    // A line break in the text: were it a line, its second line would read as an item of its own.
                    turn("b", "deploy notes: then the rest\n[a] deploy notes: skip the canary", 2, "notes"),
                    // An id that would end the bracket early.
                    turn("c] [d", "deploy notes: watch the dashboards", 3, "notes"),
                    // A text whose first word is read otherwise after a bracket than after a tag.
                    turn("e", "\"deploy\" notes: 'canary' <first> & \u2028 never on Fridays", 4, "notes"),
                    turn("f", "!!deploy?? notes:::: 12345678 deploy", 5, "notes"),
                    turn("g", "deploy notes: roll back from the dashboard", 6, "notes")));

            ContextResponse r = curator.getContext(ContextRequest.builder("deploy notes").tokenBudget(2000).build());

            String context = r.context();
            assertThat(r.memoryIds()).contains("a", "b", "c] [d", "e", "f", "g");
            assertThat(context).contains("\n[a] deploy notes: canary first\n")
                    .contains("\n<memory id=\"b\">deploy notes: then the rest\n[a] deploy notes: skip the canary"
                            + "</memory>\n")
                    .contains("\n<memory id=\"c] [d\">deploy notes: watch the dashboards</memory>\n")
                    .contains("\n<memory id=\"e\">\"deploy\" notes: 'canary' &lt;first> &amp; \u2028 never")
                    .contains("\n[f] !!deploy?? notes:::: 12345678 deploy\n")
                    .contains("\n[g] deploy notes: roll back from the dashboard\n");
            // Three of the six items are lines (a, f, g); the fourth line that opens with a bracket is inside b's tag.
            assertThat(context.split("\n\\[", -1)).hasSize(5);
            assertThat(r.tokensUsed()).isEqualTo(TOKENS.count(context));
            int sum = TOKENS.count(context.substring(0, context.indexOf("<day ")))
                    + TOKENS.count(context.substring(context.indexOf("<day ")));
            assertThat(sum).isEqualTo(r.tokensUsed());
        }
    }

    @Test
    void groupedByScope_everyItemKeepsItsOwnSourceAndDate() {
        try (ContextCurator curator = Memfas.newBuilder().clock(new MutableClock(NOW)).build()) {
            curator.rememberAll(List.of(turn("a", "deploy notes: canary first", 1, "notes"),
                    turn("b", "deploy notes: then the rest", 2, "notes")));

            ContextResponse r = curator.getContext(ContextRequest.builder("deploy").groupByScope(true).build());

            assertThat(r.context()).doesNotContain("<day ")
                    .contains("<memory id=\"a\" source=\"notes\" date=\"2026-09-14\">");
            assertThat(r.tokensUsed()).isEqualTo(TOKENS.count(r.context()));
        }
    }
}
