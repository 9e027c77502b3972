package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.Memories;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.core.store.InMemoryMemoryStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Recurring memories found as patterns, listed on request and offered at a session's start. */
final class PatternsTest {
    private static final Instant T0 = Instant.parse("2026-03-02T09:00:00Z");

    private static Memory memory(String id, String text, String source, int daysAgo) {
        return Memory.builder(text).id(id).source(source).createdAt(T0.minus(Duration.ofDays(daysAgo))).build();
    }

    /** A fix applied in three sessions, a convention said twice in one session, and unrelated notes. */
    private static void remember(ContextCurator curator) {
        curator.rememberAll(List.of(
                memory("fix1", "Fixed the flaky login test by freezing the clock in the login test setup.", "s1", 30),
                memory("fix2", "The flaky login test failed again; fixed by freezing the clock in its setup.", "s2",
                        12),
                memory("fix3", "Flaky login test again: freezing the clock in the login test setup fixed it.", "s3", 2),
                memory("conv1", "Always name feature flags with the team prefix.", "s4", 20),
                memory("conv2", "Always name feature flags with the team prefix, like pay_new_checkout.", "s4", 19),
                memory("n1", "The office coffee machine is descaled on Fridays.", "s5", 5),
                memory("n2", "Kafka retention on the events cluster is seven days.", "s6", 3),
                memory("n3", "The billing database moved to the eu-west region.", "s7", 1)));
    }

    private static void assertTheFixIsThePattern(List<Memories.Pattern> patterns) {
        assertThat(patterns).hasSize(1);
        Memories.Pattern fix = patterns.get(0);
        assertThat(fix.count()).isEqualTo(3);
        assertThat(fix.sources()).isEqualTo(3);
        assertThat(fix.memoryIds()).containsExactly("fix3", "fix2", "fix1");
        assertThat(fix.latest().id()).isEqualTo("fix3");
        assertThat(fix.label()).contains("login test");
    }

    @Test
    void aFixAppliedInThreeSessions_isAPattern_aNoteSaidTwiceInOneSessionIsNot() {
        try (ContextCurator curator = Memfas.newBuilder().store(new InMemoryMemoryStore())
                .embedder(new HashingEmbedder(256)).clock(new MutableClock(T0)).build()) {
            remember(curator);
            assertTheFixIsThePattern(curator.memories().patterns("default", null, 10));
            // The filter narrows what is read: without the last fix, two are not a pattern.
            assertThat(curator.memories().patterns("default", MemoryFilter.all().until(T0.minus(Duration.ofDays(5))),
                    10)).isEmpty();
            assertThatThrownBy(() -> curator.memories().patterns("default", null, 0))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("pattern limit must be in [1, 100]: 0");
        }
    }

    @Test
    void withoutAnEmbedder_theWordsTheyShare_groupThem() {
        try (ContextCurator curator = Memfas.newBuilder().store(new InMemoryMemoryStore())
                .clock(new MutableClock(T0)).build()) {
            remember(curator);
            assertTheFixIsThePattern(curator.memories().patterns("default", null, 10));
        }
    }

    @Test
    void aSessionsStart_offersThePatternsLatestExample_beforeTheLatestMemories() {
        try (ContextCurator curator = Memfas.newBuilder().store(new InMemoryMemoryStore())
                .embedder(new HashingEmbedder(256)).clock(new MutableClock(T0)).build()) {
            remember(curator);
            for (int i = 0; i < 30; i++) {
                curator.remember(Memory.builder("Deploy note " + i + ": service " + i + " went out on time.")
                        .id("d" + i).createdAt(T0.minus(Duration.ofMinutes(60 - i))).build());
            }
            // Room for a few memories: the pattern's example comes before the day's deploy notes.
            List<String> ids = curator.getContext(ContextRequest.builder("").tokenBudget(120).build()).memoryIds();
            assertThat(ids).contains("fix3").doesNotContain("fix1", "fix2");
        }
    }
}
