package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Layer;
import dev.memfas.Memory;
import dev.memfas.RememberRequest;
import dev.memfas.core.store.InMemoryMemoryStore;
import dev.memfas.core.telemetry.TelemetryLog;
import dev.memfas.telemetry.SessionSummary;
import dev.memfas.telemetry.SessionSummary.EndReason;
import dev.memfas.telemetry.TelemetryListener;
import dev.memfas.telemetry.TurnTelemetry;
import dev.memfas.upkeep.AgentEvent;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A session's topics, their confidence and history, and its summary when it ends, however it ends. */
final class SessionSummaryTest {
    private static final Instant T0 = Instant.parse("2026-03-02T09:00:00Z");
    private final MutableClock clock = new MutableClock(T0);
    private final List<SessionSummary> ended = new ArrayList<>();
    private final List<TurnTelemetry> turns = new ArrayList<>();

    @TempDir
    Path dir;

    private final TelemetryListener listener = new TelemetryListener() {
        @Override
        public void onTurn(TurnTelemetry turn) {
            turns.add(turn);
        }

        @Override
        public void onSessionEnd(SessionSummary session) {
            ended.add(session);
        }
    };

    private Memfas.Builder builder() {
        return Memfas.newBuilder().store(new InMemoryMemoryStore()).clock(clock).telemetryListener(listener);
    }

    private static void remember(ContextCurator curator) {
        curator.remember(Memory.builder("Kafka retention on the events cluster is seven days.").id("kafka").build());
        curator.remember(Memory.builder("The pasta sauce needs San Marzano tomatoes.").id("pasta").build());
    }

    @Test
    void anEndedSession_isSummarized_inTheLogAndToListeners() {
        Path log = dir.resolve("t.jsonl");
        try (ContextCurator curator = builder().embedder(new HashingEmbedder(64)).telemetry(log).build()) {
            remember(curator);
            curator.getContext(ContextRequest.builder("kafka retention events").sessionId("s1").baselineTokens(1000)
                    .build());
            clock.advance(Duration.ofMinutes(1));
            curator.getContext(ContextRequest.builder("kafka retention events cluster").sessionId("s1")
                    .baselineTokens(2000).build());
            clock.advance(Duration.ofMinutes(1));
            curator.getContext("pasta sauce tomatoes", "s1");

            curator.upkeep().reportEvent(new AgentEvent(AgentEvent.Type.SESSION_END, "default", "s1", "done",
                    java.util.Map.of()));

            assertThat(ended).hasSize(1);
            SessionSummary s = ended.get(0);
            assertThat(s.sessionId()).isEqualTo("s1");
            assertThat(s.reason()).isEqualTo(EndReason.ENDED);
            assertThat(s.turns()).isEqualTo(3);
            assertThat(s.started()).isEqualTo(T0);
            assertThat(s.ended()).isEqualTo(T0.plus(Duration.ofMinutes(2)));
            long curated = turns.stream().mapToLong(TurnTelemetry::curatedTokens).sum();
            assertThat(s.curatedTokens()).isEqualTo(curated);
            assertThat(s.baselineTokens()).isEqualTo(3000);
            assertThat(s.tokensSaved()).isEqualTo(3000 - turns.get(0).curatedTokens() - turns.get(1).curatedTokens());
            assertThat(s.topicShifts()).isEqualTo(1);
            assertThat(s.topics()).hasSize(2).containsExactly(turns.get(1).topic(), turns.get(2).topic());
            assertThat(s.memoriesUsed()).isPositive();
            assertThat(s.mostUsedMemories()).containsKey("kafka");
            assertThat(s.latencyAverage()).isPositive();
            assertThat(s.latencyP95()).isGreaterThanOrEqualTo(s.latencyAverage().dividedBy(3));
        }
        // Ended once: closing the curator does not summarize it again.
        assertThat(ended).hasSize(1);
        assertThat(TelemetryLog.readSessions(log)).containsExactly(ended.get(0));
        assertThat(TelemetryLog.read(log)).hasSize(3);
    }

    @Test
    void theTopicsConfidenceAndHistory_areInTheResponseAndTheTelemetry() {
        try (ContextCurator curator = builder().embedder(new HashingEmbedder(64)).build()) {
            remember(curator);
            ContextResponse first = curator.getContext("kafka retention events", "s1");
            ContextResponse again = curator.getContext("kafka retention events cluster", "s1");
            ContextResponse other = curator.getContext("pasta sauce tomatoes", "s1");

            assertThat(first.topicConfidence()).isEqualTo(1.0, org.assertj.core.api.Assertions.within(1e-6));
            assertThat(first.topicHistory()).isEmpty();
            assertThat(again.topicShifted()).isFalse();
            assertThat(again.topicConfidence()).isStrictlyBetween(0.0, 1.0);
            assertThat(other.topicShifted()).isTrue();
            assertThat(other.topicHistory()).containsExactly(again.topic());
            assertThat(turns.get(1).topicConfidence()).isEqualTo(again.topicConfidence());
        }
    }

    @Test
    void withoutAnEmbedder_theConfidenceIsTheShareOfTheQuerysWordsTheTopicHeld() {
        try (ContextCurator curator = builder().build()) {
            remember(curator);
            curator.getContext("kafka retention", "s1");
            ContextResponse half = curator.getContext("kafka lag", "s1");
            assertThat(half.topicShifted()).isFalse();
            assertThat(half.topicConfidence()).isEqualTo(0.5);
        }
    }

    @Test
    void idleEvictedAndClosedSessions_areSummarizedOnce_andOneWithoutATurnIsNot() {
        try (ContextCurator curator = builder().sessionIdleTimeout(Duration.ofMinutes(30)).maxSessions(2).build()) {
            remember(curator);
            curator.getContext("kafka retention", "idle");
            clock.advance(Duration.ofMinutes(31));
            // The idle session is found so by the next call that looks.
            curator.getContext("kafka retention", "a");
            assertThat(ended).extracting(SessionSummary::sessionId, SessionSummary::reason)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("idle", EndReason.TIMED_OUT));

            clock.advance(Duration.ofSeconds(1));
            curator.getContext("pasta", "b");
            clock.advance(Duration.ofSeconds(1));
            curator.getContext("pasta", "c");
            assertThat(ended).extracting(SessionSummary::sessionId).containsExactly("idle", "a");
            assertThat(ended.get(1).reason()).isEqualTo(EndReason.EVICTED);

            // A session opened by a write pushes the least recently used out too, and is summarized by nothing.
            clock.advance(Duration.ofSeconds(1));
            curator.remember(new RememberRequest(Memory.builder("Scratch note.").build(), "quiet", null,
                    Layer.WORKING));
            assertThat(ended).extracting(SessionSummary::sessionId).containsExactly("idle", "a", "b");
        }
        assertThat(ended).extracting(SessionSummary::sessionId, SessionSummary::reason).containsExactly(
                org.assertj.core.groups.Tuple.tuple("idle", EndReason.TIMED_OUT),
                org.assertj.core.groups.Tuple.tuple("a", EndReason.EVICTED),
                org.assertj.core.groups.Tuple.tuple("b", EndReason.EVICTED),
                org.assertj.core.groups.Tuple.tuple("c", EndReason.CLOSED));
        assertThat(ended).allMatch(s -> s.turns() == 1);
    }
}
