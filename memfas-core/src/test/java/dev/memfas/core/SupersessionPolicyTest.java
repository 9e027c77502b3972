package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.RecallRequest;
import dev.memfas.Scope;
import dev.memfas.policy.SupersessionPolicy;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The update rule's logic, with a bag-of-terms embedder: "the orders topic keeps messages N days" differ in one term of
 * seven, a cosine of 0.86 to 0.9; the real model's cosines are tested in memfas-embed-djl.
 */
final class SupersessionPolicyTest {
    private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");

    private static ContextCurator curator(SupersessionPolicy policy) {
        return Memfas.newBuilder().embedder(new HashingEmbedder(256))
                .clock(new MutableClock(T0.plusSeconds(86_400 * 20)))
                .supersession(policy).build();
    }

    private static Memory fact(String id, String days, int day) {
        return Memory.builder("the orders topic keeps its messages for " + days + " days").id(id)
                .createdAt(T0.plusSeconds(86_400L * day)).build();
    }

    @Test
    void off_findsNothing() {
        try (ContextCurator curator = curator(SupersessionPolicy.off())) {
            curator.rememberAll(List.of(fact("a", "seven", 1), fact("b", "fourteen", 2)));

            assertThat(curator.get("default", "a").orElseThrow().memory().isSuperseded()).isFalse();
            assertThat(curator.get("default", "b").orElseThrow().memory().metadata()).isEmpty();
        }
    }

    @Test
    void apply_inOneBatch_makesALinearChain_oldestFirst() {
        try (ContextCurator curator = curator(SupersessionPolicy.apply(0.7))) {
            List<Memory> stored = curator.rememberAll(List.of(fact("c", "thirty", 3), fact("a", "seven", 1),
                    fact("b", "fourteen", 2)));

            Memory a = curator.get("default", "a").orElseThrow().memory();
            Memory b = curator.get("default", "b").orElseThrow().memory();
            assertThat(a.supersededBy()).isEqualTo("b");
            assertThat(a.validUntil()).isEqualTo(T0.plusSeconds(86_400 * 2));
            assertThat(b.supersedes()).containsExactly("a");
            assertThat(b.supersededBy()).isEqualTo("c");
            assertThat(stored.get(0).supersedes()).containsExactly("b");
            assertThat(curator.recall(RecallRequest.builder("orders topic messages days").limit(10).build()))
                    .extracting(h -> h.memory().id())
                    .containsExactly("c");
            assertThat(curator.memories().history("default", "a")).hasSize(2);
        }
    }

    @Test
    void apply_leavesOtherKindsScopesTheSameTextAndLaterStatementsAlone() {
        try (ContextCurator curator = curator(SupersessionPolicy.apply(0.7))) {
            curator.rememberAll(List.of(
                    fact("decision", "seven", 1).toBuilder().kind("decision").build(),
                    fact("hydra", "seven", 1).toBuilder().scope(Scope.project("hydra")).build(),
                    fact("same", "fourteen", 1)));
            curator.remember(fact("later", "ninety", 15).toBuilder().source("chat-9").kind("lesson").build());

            Memory update = curator.remember(fact("update", "Fourteen!", 5));
            Memory earlier = curator.remember(fact("earlier", "sixty", 4).toBuilder().kind("lesson").build());

            assertThat(update.supersedes()).isEmpty();
            assertThat(earlier.supersedes()).isEmpty();
            for (String id : List.of("decision", "hydra", "same", "later")) {
                assertThat(curator.get("default", id).orElseThrow().memory().isSuperseded()).as(id).isFalse();
            }
        }
    }

    @Test
    void suggest_namesTheClosest_andSupersedesNothing() {
        try (ContextCurator curator = curator(SupersessionPolicy.suggest(0.7))) {
            curator.remember(fact("a", "seven", 1));

            Memory b = curator.remember(fact("b", "fourteen", 2));

            assertThat(b.metadata()).containsEntry(SupersessionPolicy.SUGGESTION_KEY, "a");
            assertThat(curator.get("default", "a").orElseThrow().memory().isSuperseded()).isFalse();
            assertThat(curator.get("default", "b").orElseThrow().memory()).isEqualTo(b);
        }
    }

    @Test
    void aBadPolicy_isRefused() {
        assertThatThrownBy(() -> SupersessionPolicy.apply(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("supersession similarity must be in (0, 1]: 0.0");
        assertThatThrownBy(() -> SupersessionPolicy.suggest(1.5)).isInstanceOf(IllegalArgumentException.class);
    }
}
