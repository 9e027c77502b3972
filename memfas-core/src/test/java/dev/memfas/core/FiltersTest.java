package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.RecallHit;
import dev.memfas.RecallRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Filters by provenance and topic: listing, and restricting a turn and a search. */
final class FiltersTest {
    private static final Instant NOW = Instant.parse("2026-11-24T09:00:00Z");

    private static ContextCurator curator(boolean withEmbedder) {
        Memfas.Builder b = Memfas.newBuilder().clock(new MutableClock(NOW));
        if (withEmbedder) {
            b.embedder(new HashingEmbedder(256));
        }
        ContextCurator c = b.build();
        c.rememberAll(List.of(
                memory("k1", "kafka retention is seven days on the orders topic", "ana", "notes/kafka.md#Retention",
                        30),
                memory("k2", "kafka consumers restart with the deploy", "ben", "notes/kafka.md#Consumers", 10),
                memory("d1", "deploys go out on tuesdays after the review", "ana", "notes/deploy.md", 5),
                memory("l1", "lunch is at noon on fridays", "ben", "chat-7", 1)));
        return c;
    }

    private static Memory memory(String id, String text, String author, String source, int daysAgo) {
        return Memory.builder(text).id(id).author(author).source(source)
                .createdAt(NOW.minus(Duration.ofDays(daysAgo))).build();
    }

    private static List<String> listed(ContextCurator c, MemoryFilter filter) {
        return c.memories().list("default", filter, 0, 100).stream().map(Memory::id).toList();
    }

    @Test
    void list_byDatesAuthorAndSource_newestFirst() {
        try (ContextCurator c = curator(false)) {
            assertThat(listed(c, MemoryFilter.all().since(NOW.minus(Duration.ofDays(20)))))
                    .containsExactly("l1", "d1", "k2");
            assertThat(listed(c, MemoryFilter.all().until(NOW.minus(Duration.ofDays(5))))).containsExactly("k2", "k1");
            assertThat(listed(c, MemoryFilter.all().author("ana"))).containsExactly("d1", "k1");
            assertThat(listed(c, MemoryFilter.all().source("notes/kafka.md"))).containsExactly("k2", "k1");
            assertThat(listed(c, MemoryFilter.all().source("notes/").until(NOW.minus(Duration.ofDays(6)))
                    .since(NOW.minus(Duration.ofDays(11))))).containsExactly("k2");
            assertThat(c.memories().list("default", MemoryFilter.all(), 1, 2).stream().map(Memory::id))
                    .containsExactly("d1", "k2");
        }
    }

    @Test
    void aTopic_isFoundByMeaningWithAModel_andByKeywordsWithout() {
        try (ContextCurator semantic = curator(true); ContextCurator lexical = curator(false)) {
            assertThat(listed(semantic, MemoryFilter.all().topic("kafka retention orders topic")))
                    .contains("k1").doesNotContain("l1", "d1");
            assertThat(listed(lexical, MemoryFilter.all().topic("kafka"))).containsExactlyInAnyOrder("k1", "k2");
            assertThat(listed(lexical, MemoryFilter.all().topic("kafka").author("ben"))).containsExactly("k2");
        }
    }

    @Test
    void theSameFilter_restrictsATurnAndASearch() {
        try (ContextCurator c = curator(false)) {
            MemoryFilter anasNotes = MemoryFilter.all().author("ana").source("notes/");

            List<String> turn = c.getContext(ContextRequest.builder("kafka deploys tuesdays").sessionId("s")
                    .filter(anasNotes).build()).memoryIds();
            List<RecallHit> hits = c.recall(RecallRequest.builder("kafka deploys tuesdays").filter(anasNotes)
                    .build());
            List<String> onTopic = c.getContext(ContextRequest.builder("what happens on deploy").sessionId("s")
                    .filter(MemoryFilter.all().topic("kafka")).build()).memoryIds();

            assertThat(turn).isNotEmpty().allMatch(id -> id.equals("k1") || id.equals("d1"));
            assertThat(hits).isNotEmpty().allMatch(h -> h.memory().author().equals("ana"));
            assertThat(onTopic).containsExactly("k2");
        }
    }

    @Test
    void aBlankTopic_isRefused() {
        assertThatThrownBy(() -> MemoryFilter.all().topic("  ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a topic must be a phrase of 1 to 1000 characters: '  '");
    }
}
