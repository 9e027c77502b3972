package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.MemfasException;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.RecallRequest;
import dev.memfas.core.lifecycle.ExtractiveSummarizer;
import dev.memfas.core.store.InMemoryMemoryStore;
import dev.memfas.core.text.JTokkitTokenizer;
import dev.memfas.upkeep.SummarizeRequest;
import dev.memfas.upkeep.SummaryReport;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Consolidating old memories into summaries: what is grouped, what is kept, and the extractive summarizer. */
final class SummarizeTest {
    private static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final ContextCurator curator = Memfas.newBuilder().store(store).clock(new MutableClock(NOW)).build();

    @AfterEach
    void close() {
        curator.close();
    }

    private static Memory said(String id, String source, int daysAgo, String text) {
        return Memory.builder(text).id(id).source(source).createdAt(NOW.minus(Duration.ofDays(daysAgo))).build();
    }

    private void seed() {
        curator.rememberAll(List.of(
                said("a1", "chat-1", 100, "We moved the billing service to Kubernetes. The move took two weeks."),
                said("a2", "chat-1", 99, "Billing on Kubernetes needs the new Helm chart. Lunch was late."),
                said("a3", "chat-1", 98, "The Helm chart for billing pins the Kubernetes version."),
                said("b1", "chat-2", 97, "Ana prefers short pull requests."),
                said("b2", "chat-2", 96, "Ana reviews pull requests in the morning."),
                said("recent", "chat-1", 2, "Billing now runs on Kubernetes 1.31."),
                said("pinned", "chat-1", 97, "Never deploy billing on Fridays.").toBuilder().pinned(true).build()));
    }

    @Test
    void oldMemories_becomeOneSummaryPerSource_thatSupersedesAndArchivesThem() {
        seed();

        SummaryReport report = curator.upkeep().summarize(SummarizeRequest.of("default", Duration.ofDays(30)));

        assertThat(report.examined()).isEqualTo(5);
        assertThat(report.summarized()).isEqualTo(5);
        assertThat(report.summaries()).hasSize(2);
        Memory billing = report.summaries().stream().filter(s -> s.source().equals("chat-1")).findFirst()
                .orElseThrow();
        assertThat(billing.kind()).isEqualTo("summary");
        assertThat(billing.supersedes()).containsExactly("a1", "a2", "a3");
        assertThat(billing.createdAt()).isEqualTo(NOW.minus(Duration.ofDays(98)));
        assertThat(billing.text()).contains("Kubernetes").doesNotContain("Lunch was late");
        Memory a1 = store.get("default", "a1").orElseThrow().memory();
        assertThat(a1.isArchived()).isTrue();
        assertThat(a1.supersededBy()).isEqualTo(billing.id());
        assertThat(store.get("default", "recent").orElseThrow().memory().isArchived()).isFalse();
        assertThat(store.get("default", "pinned").orElseThrow().memory().isArchived()).isFalse();
        assertThat(curator.recall(RecallRequest.builder("billing helm chart kubernetes").limit(10).build()))
                .extracting(h -> h.memory().id())
                .contains(billing.id()).doesNotContain("a1", "a2", "a3");
        assertThat(curator.memories().list("default", MemoryFilter.all().archived(true), 0, 10)).hasSize(5);

        // Summaries are not summarized again, and the originals are restorable.
        assertThat(curator.upkeep().summarize(SummarizeRequest.of("default", Duration.ofDays(30))).summaries())
                .isEmpty();
        assertThat(curator.memories().restore("default", "a1").isArchived()).isFalse();
    }

    @Test
    void aDryRun_showsTheSummaries_andChangesNothing() {
        seed();

        SummaryReport dry = curator.upkeep().summarize(SummarizeRequest.of("default", Duration.ofDays(30)).asDryRun());

        assertThat(dry.dryRun()).isTrue();
        assertThat(dry.summaries()).hasSize(2);
        assertThat(store.count("default")).isEqualTo(7);
        assertThat(store.get("default", "a1").orElseThrow().memory().isArchived()).isFalse();
    }

    @Test
    void theExtractiveSummarizer_keepsTheMostSharedSentences_inOrder_withinTheCap_everyTime() {
        List<Memory> group = new ArrayList<>();
        group.add(said("x1", "s", 9, "Kafka retention is seven days. The weather was nice."));
        group.add(said("x2", "s", 8, "The orders topic uses Kafka retention settings."));
        group.add(said("x3", "s", 7, "Retention on the orders topic was raised. Someone brought cake."));
        ExtractiveSummarizer summarizer = new ExtractiveSummarizer();
        JTokkitTokenizer tokenizer = JTokkitTokenizer.cl100k();

        String summary = summarizer.summarize(group, 30, tokenizer);

        assertThat(tokenizer.count(summary)).isLessThanOrEqualTo(30);
        assertThat(summary).contains("Kafka retention is seven days.").doesNotContain("cake", "weather");
        assertThat(summary.indexOf("Kafka retention is seven days."))
                .isLessThan(summary.indexOf("orders topic uses"));
        assertThat(summarizer.summarize(group, 30, tokenizer)).isEqualTo(summary);
        assertThat(tokenizer.count(summarizer.summarize(group, 16, tokenizer))).isLessThanOrEqualTo(16);
    }

    @Test
    void aFailingOrOverlongSummarizer_changesNothing_andSaysWhich() {
        try (ContextCurator failing = Memfas.newBuilder().clock(new MutableClock(NOW))
                .summarizer((memories, max, tokenizer) -> "word ".repeat(max + 10)).build()) {
            failing.rememberAll(List.of(said("a", "s", 90, "One."), said("b", "s", 89, "Two.")));

            assertThatThrownBy(() -> failing.upkeep().summarize(SummarizeRequest.of("default", Duration.ofDays(30))))
                    .isInstanceOf(MemfasException.class).hasMessageContaining("over the 200 asked")
                    .hasMessageContaining("source 's'");
            assertThat(failing.get("default", "a").orElseThrow().memory().isArchived()).isFalse();
        }
        assertThatThrownBy(() -> SummarizeRequest.of("default", Duration.ofDays(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("olderThan");
        assertThatThrownBy(() -> SummarizeRequest.of("default", Duration.ZERO).maxTokens(3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[16, 10000]: 3");
    }
}
