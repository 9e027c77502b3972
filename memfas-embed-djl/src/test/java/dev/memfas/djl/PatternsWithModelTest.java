package dev.memfas.djl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.Memories;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Patterns with the default model: the same fix and the same convention said in other words in other sessions are
 * found, and memories that are only about the same things (the login test, deploys) are not grouped with them.
 */
final class PatternsWithModelTest {
    private static final Instant NOW = Instant.parse("2026-03-04T09:00:00Z");
    private static DjlEmbedder embedder;
    private static ContextCurator curator;

    private static Memory memory(String id, String text, String session, int daysAgo) {
        return Memory.builder(text).id(id).source(session).createdAt(NOW.minus(Duration.ofDays(daysAgo))).build();
    }

    @BeforeAll
    static void remember() {
        embedder = DjlEmbedder.defaultModel();
        curator = Memfas.newBuilder().embedder(embedder).clock(Clock.fixed(NOW, ZoneOffset.UTC)).build();
        curator.rememberAll(List.of(
                memory("fix-1", "The login test was flaky; freezing the clock in its setup fixed it.", "s1", 40),
                memory("fix-2", "Fixed the flaky login test again by freezing the clock in the test setup.", "s2", 21),
                memory("fix-3", "Login test flaked once more, and freezing the test clock fixed it.", "s3", 3),
                memory("conv-1", "Feature flags are named with the team prefix, like pay_new_checkout.", "s1", 39),
                memory("conv-2", "Name every feature flag with the owning team's prefix.", "s4", 15),
                memory("conv-3", "Remember: feature flag names start with the team prefix.", "s5", 2),
                memory("login-other", "The login test suite takes four minutes on CI.", "s2", 20),
                memory("login-page", "The login page moved to the new design system in March.", "s6", 10),
                memory("deploy-1", "Deploys to production happen on Tuesdays and Thursdays.", "s3", 30),
                memory("deploy-2", "The deploy pipeline runs the smoke tests before production.", "s4", 12),
                memory("coffee", "The coffee machine on the third floor is descaled on Fridays.", "s5", 5)));
    }

    @AfterAll
    static void close() {
        curator.close();
        embedder.close();
    }

    @Test
    void theSameFixAndTheSameConvention_inOtherWords_areThePatterns() {
        List<Memories.Pattern> patterns = curator.memories().patterns("default", null, 10);

        assertThat(patterns).extracting(p -> List.copyOf(new java.util.TreeSet<>(p.memoryIds())))
                .containsExactlyInAnyOrder(List.of("fix-1", "fix-2", "fix-3"), List.of("conv-1", "conv-2", "conv-3"));
        Memories.Pattern fix = patterns.stream().filter(p -> p.memoryIds().contains("fix-1")).findFirst().orElseThrow();
        assertThat(fix.latest().id()).isEqualTo("fix-3");
        assertThat(fix.sources()).isEqualTo(3);
        assertThat(fix.label()).containsAnyOf("login test", "clock");
    }
}
