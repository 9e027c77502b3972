package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Memory;
import dev.memfas.ScoringWeights;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Sessions never see each other's state: eight threads running turns at once get, turn by turn, exactly what each
 * session gets when it runs alone.
 */
final class SessionIsolationTest {
    private static final Instant NOW = Instant.parse("2026-11-01T12:00:00Z");
    private static final String[] SUBJECTS = {"kafka", "postgres", "gradle", "grafana", "nginx", "redis", "docker",
        "spark"};
    private static final int TURNS = 60;

    /** What a turn's outcome depends on, leaving out access counts, which the store shares across sessions. */
    private record Outcome(List<String> ids, String topic, boolean shifted, List<Double> hot, List<Double> scores) {
        static Outcome of(ContextResponse r) {
            return new Outcome(r.memoryIds(), r.topic(), r.topicShifted(),
                    r.items().stream().map(i -> i.factors().hot()).toList(),
                    r.items().stream().map(i -> Math.round(i.score() * 1e9) / 1e9).toList());
        }
    }

    @Test
    void eightThreadsOnEightSessions_getWhatEachSessionGetsAlone() throws Exception {
        List<List<Outcome>> concurrent;
        try (ContextCurator curator = newCurator()) {
            ExecutorService pool = Executors.newFixedThreadPool(SUBJECTS.length);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<List<Outcome>>> futures = new ArrayList<>();
            for (int s = 0; s < SUBJECTS.length; s++) {
                int session = s;
                futures.add(pool.submit(() -> {
                    start.await();
                    return runSession(curator, session);
                }));
            }
            start.countDown();
            pool.shutdown();
            assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
            concurrent = new ArrayList<>();
            for (Future<List<Outcome>> f : futures) {
                concurrent.add(f.get());
            }
            assertThat(curator.stats().activeSessions()).isEqualTo(SUBJECTS.length);
            assertThat(curator.stats().turns()).isEqualTo((long) TURNS * SUBJECTS.length);
        }

        for (int s = 0; s < SUBJECTS.length; s++) {
            List<Outcome> alone;
            try (ContextCurator curator = newCurator()) {
                alone = runSession(curator, s);
            }
            assertThat(concurrent.get(s)).as(SUBJECTS[s]).isEqualTo(alone);
            assertThat(alone.get(TURNS - 1).hot()).as(SUBJECTS[s]).contains(1.0);
        }
    }

    private static List<Outcome> runSession(ContextCurator curator, int session) {
        String subject = SUBJECTS[session];
        String other = SUBJECTS[(session + 1) % SUBJECTS.length];
        List<Outcome> outcomes = new ArrayList<>();
        for (int turn = 0; turn < TURNS; turn++) {
            // Mostly on the session's subject, with a detour so topics shift back and forth.
            String query = (turn % 20 == 10 ? other : subject) + " operations question " + turn;
            outcomes.add(Outcome.of(curator.getContext(ContextRequest.builder(query)
                    .sessionId("session-" + subject).tokenBudget(120).build())));
        }
        return outcomes;
    }

    private static ContextCurator newCurator() {
        ContextCurator curator = Memfas.newBuilder().clock(Clock.fixed(NOW, ZoneOffset.UTC))
                .embedder(new HashingEmbedder(256))
                .weights(new ScoringWeights(0.45, 0.25, 0.10, 0, 0.05, 0.05, 0.05, 0.3))
                .build();
        List<Memory> memories = new ArrayList<>();
        for (String subject : SUBJECTS) {
            for (int i = 0; i < 5; i++) {
                memories.add(Memory.builder(subject + " operations note " + i + " about " + subject)
                        .id(subject + "-" + i).createdAt(NOW).build());
            }
        }
        curator.rememberAll(memories);
        return curator;
    }
}
