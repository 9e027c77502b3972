package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Layer;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.RememberRequest;
import dev.memfas.Scope;
import dev.memfas.Trigger;
import dev.memfas.core.store.InMemoryMemoryStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A request without a query: the start of a session, from working memory, pinned memories and the latest. */
final class SessionOpeningTest {
    private static final Instant T0 = Instant.parse("2026-03-02T09:00:00Z");
    private final MutableClock clock = new MutableClock(T0);

    private ContextCurator curator() {
        return Memfas.newBuilder().store(new InMemoryMemoryStore()).embedder(new HashingEmbedder(64)).clock(clock)
                .build();
    }

    private static Memory memory(String id, String text, Instant created) {
        return Memory.builder(text).id(id).createdAt(created).build();
    }

    @Test
    void anEmptyQuery_givesWorkingMemory_thenPinned_thenTheLatest_newestFirst() {
        try (ContextCurator curator = curator()) {
            curator.remember(memory("old", "The staging cluster was retired in January.",
                    T0.minus(Duration.ofDays(40))));
            curator.remember(memory("recent", "Yesterday we moved the billing cron to 02:00 UTC.",
                    T0.minus(Duration.ofDays(1)).plusSeconds(60)));
            curator.remember(memory("newest", "This morning the release branch was cut for 4.2.",
                    T0.minusSeconds(3600)));
            curator.remember(Memory.builder("Never force-push to main.").id("rule").pinned(true)
                    .createdAt(T0.minus(Duration.ofDays(300))).build());
            curator.remember(new RememberRequest(Memory.builder("Current task: fix the flaky login test.")
                    .id("task").build(), "s1", null, Layer.WORKING));
            curator.triggers().add(Trigger.of("release", "Releases need two approvals."));

            ContextResponse r = curator.getContext("", "s1");

            // Laid out as every context is: the day's items under its heading, the others with their dates.
            assertThat(r.memoryIds()).containsExactlyInAnyOrder("rule", "task", "newest", "recent", "old");
            assertThat(r.context()).contains("<day date=\"today\">").contains("date=\"yesterday\"");
            assertThat(r.triggersMatched()).isEmpty();
            assertThat(r.context()).doesNotContain("two approvals");
            assertThat(r.tokensUsed()).isPositive().isLessThanOrEqualTo(r.budget());
        }
    }

    @Test
    void aSmallBudget_takesWorkingMemoryAndPinnedFirst_thenTheNewest() {
        try (ContextCurator curator = curator()) {
            for (int i = 0; i < 20; i++) {
                curator.remember(memory("n" + i, "Build " + i + " of the mobile app passed its smoke tests.",
                        T0.minus(Duration.ofMinutes(100 - i))));
            }
            curator.remember(Memory.builder("Never force-push to main.").id("rule").pinned(true)
                    .createdAt(T0.minus(Duration.ofDays(300))).build());
            curator.remember(new RememberRequest(Memory.builder("Current task: fix the flaky login test.")
                    .id("task").build(), "s1", null, Layer.WORKING));

            ContextResponse r = curator.getContext(ContextRequest.builder("").sessionId("s1").tokenBudget(90)
                    .build());

            assertThat(r.memoryIds()).contains("rule", "task").hasSizeLessThan(5);
            assertThat(r.memoryIds().stream().filter(id -> id.startsWith("n"))).allMatch(id -> id.equals("n19"));
            assertThat(r.tokensUsed()).isLessThanOrEqualTo(90);
        }
    }

    @Test
    void theOpening_keepsWithinTheBudget_newestFirst() {
        try (ContextCurator curator = curator()) {
            List<Memory> many = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                many.add(memory("m" + i, "Note " + i + ": the deploy of service " + i + " went out on time.",
                        T0.minus(Duration.ofMinutes(300 - i))));
            }
            curator.rememberAll(many);

            ContextResponse r = curator.getContext(ContextRequest.builder("").tokenBudget(200).build());

            assertThat(r.tokensUsed()).isLessThanOrEqualTo(200);
            int n = r.memoryIds().size();
            assertThat(n).isGreaterThan(3);
            List<String> newest = new ArrayList<>();
            for (int i = 299; i > 299 - n; i--) {
                newest.add("m" + i);
            }
            assertThat(r.memoryIds()).containsExactlyInAnyOrderElementsOf(newest);
        }
    }

    @Test
    void theLatest_areFoundHoweverOldTheyAre_andOnlyThoseInForce_ofTheRequestsProjectAndFilter() {
        try (ContextCurator curator = curator()) {
            Instant longAgo = T0.minus(Duration.ofDays(800));
            curator.remember(Memory.builder("Hydra builds with Gradle 8.").id("hydra").scope(Scope.project("hydra"))
                    .createdAt(longAgo).build());
            curator.remember(Memory.builder("Kraken builds with Maven.").id("kraken").scope(Scope.project("kraken"))
                    .createdAt(longAgo.plusSeconds(10)).build());
            curator.remember(Memory.builder("Use UTC in every log line.").id("utc").kind("convention")
                    .createdAt(longAgo.plusSeconds(20)).build());
            curator.remember(Memory.builder("The old CI ran on Jenkins.").id("gone").createdAt(longAgo)
                    .validUntil(longAgo.plusSeconds(60)).build());

            ContextResponse hydra = curator.getContext(ContextRequest.builder("").project("hydra").build());
            assertThat(hydra.memoryIds()).containsExactlyInAnyOrder("utc", "hydra");

            ContextResponse conventions = curator.getContext(ContextRequest.builder("")
                    .filter(MemoryFilter.all().kind("convention")).build());
            assertThat(conventions.memoryIds()).containsExactly("utc");
        }
    }

    @Test
    void anOpening_leavesTheSessionsTopicWhereItWas_andABlankQueryIsStillAnError() {
        try (ContextCurator curator = curator()) {
            curator.remember(memory("a", "The payments service retries webhooks three times.", T0.minusSeconds(60)));
            ContextResponse asked = curator.getContext("payments webhooks retries", "s1");

            ContextResponse opened = curator.getContext("", "s1");

            assertThat(opened.topicShifted()).isFalse();
            assertThat(opened.topic()).isEqualTo(asked.topic());
            assertThatThrownBy(() -> curator.getContext("   ", "s1")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("query must not be blank: '   '");
        }
    }
}
