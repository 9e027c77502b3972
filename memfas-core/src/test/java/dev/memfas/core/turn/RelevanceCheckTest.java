package dev.memfas.core.turn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.DroppedMemory;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import dev.memfas.core.MutableClock;
import dev.memfas.policy.RelevanceJudge;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A relevance check before a goal: the judge chooses among the best memories, or the turn keeps its scores. */
final class RelevanceCheckTest {
    private static final Instant NOW = Instant.parse("2026-11-24T09:00:00Z");

    private static ContextCurator curator(RelevanceJudge judge, Duration timeout) {
        ContextCurator c = Memfas.newBuilder().clock(new MutableClock(NOW)).relevanceJudge(judge, timeout).build();
        c.rememberAll(List.of(
                Memory.builder("Deploys go out on Tuesdays after the review.").id("tuesdays").build(),
                Memory.builder("Deploys need a green build on main.").id("green").build(),
                Memory.builder("The deploy dashboard lives at ops.example.").id("dashboard").build(),
                Memory.builder("Always deploy with the checklist open.").id("checklist").pinned(true).build()));
        return c;
    }

    private static ContextResponse ask(ContextCurator c, boolean check) {
        return c.getContext(ContextRequest.builder("can we deploy today?").sessionId("s").relevanceCheck(check)
                .explain(true).build());
    }

    @Test
    void theJudgesChoice_isWhatTheContextHolds_besidesPinnedMemories_andOnlyWhenAsked() {
        AtomicInteger calls = new AtomicInteger();
        RelevanceJudge judge = (goal, candidates) -> {
            calls.incrementAndGet();
            assertThat(goal).isEqualTo("can we deploy today?");
            assertThat(candidates).allMatch(k -> k.kind() == RelevanceJudge.Kind.MEMORY)
                    .extracting(RelevanceJudge.Candidate::id).contains("tuesdays", "green", "dashboard")
                    .doesNotContain("checklist");
            return List.of("tuesdays", "green");
        };
        try (ContextCurator c = curator(judge, Duration.ofSeconds(5))) {
            ContextResponse checked = ask(c, true);
            ContextResponse plain = ask(c, false);

            assertThat(checked.memoryIds()).containsExactlyInAnyOrder("checklist", "tuesdays", "green");
            assertThat(checked.dropped()).extracting(DroppedMemory::memoryId, DroppedMemory::reason)
                    .contains(org.assertj.core.groups.Tuple.tuple("dashboard",
                            DroppedMemory.Reason.NOT_CHOSEN_BY_JUDGE));
            assertThat(plain.memoryIds()).contains("dashboard");
            assertThat(calls).hasValue(1);
        }
    }

    @Test
    void aJudgeThatFails_isLate_orNamesWhatItWasNotShown_leavesTheTurnAsScored() {
        CountDownLatch never = new CountDownLatch(1);
        RelevanceJudge failing = (goal, candidates) -> {
            throw new IllegalStateException("model down");
        };
        RelevanceJudge late = (goal, candidates) -> {
            never.await();
            return List.of();
        };
        RelevanceJudge inventing = (goal, candidates) -> List.of("tuesdays", "someone-elses-memory");
        for (RelevanceJudge judge : List.of(failing, late, inventing)) {
            try (ContextCurator c = curator(judge, Duration.ofMillis(100))) {
                assertThat(ask(c, true).memoryIds()).contains("tuesdays", "green", "dashboard", "checklist");
            }
        }
        never.countDown();
    }

    @Test
    void aJudgeThatChoosesNothing_leavesOnlyPinnedMemories() {
        try (ContextCurator c = curator((goal, candidates) -> List.of(), Duration.ofSeconds(5))) {
            assertThat(ask(c, true).memoryIds()).containsExactly("checklist");
        }
    }

    @Test
    void stateAndARelevanceCheck_inOneRequest_askTheJudgeOnce_aboutBothKinds() {
        AtomicInteger calls = new AtomicInteger();
        List<List<RelevanceJudge.Candidate>> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        RelevanceJudge judge = (goal, candidates) -> {
            calls.incrementAndGet();
            seen.add(candidates);
            return List.of("tuesdays", "notes/deploy-window");
        };
        try (ContextCurator c = curator(judge, Duration.ofSeconds(5))) {
            c.state().save("default", "notes/deploy-window", "\"deploy between 10:00 and 16:00\"");
            c.state().save("default", "notes/lunch-order", "\"two pizzas, one salad\"");
            c.state().save("default", "todo/next", "\"write the release notes\"");

            ContextResponse r = c.getContext(ContextRequest.builder("can we deploy today?").sessionId("s")
                    .relevanceCheck(true).state("notes/*", "todo/*").build());

            assertThat(calls.get()).as("one call for two globs and the check").isEqualTo(1);
            assertThat(seen.get(0)).extracting(RelevanceJudge.Candidate::kind)
                    .contains(RelevanceJudge.Kind.MEMORY, RelevanceJudge.Kind.STATE);
            assertThat(seen.get(0)).extracting(RelevanceJudge.Candidate::id)
                    .contains("tuesdays", "notes/deploy-window", "notes/lunch-order", "todo/next");
            assertThat(r.memoryIds()).containsExactlyInAnyOrder("tuesdays", "checklist");
            assertThat(r.stateKeys()).containsExactly("notes/deploy-window");
        }
    }
}
