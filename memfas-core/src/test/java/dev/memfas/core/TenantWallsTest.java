package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Layer;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.RecallHit;
import dev.memfas.RecallRequest;
import dev.memfas.RememberRequest;
import dev.memfas.Scope;
import dev.memfas.Trigger;
import dev.memfas.Triggers;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.StoredMemory;
import dev.memfas.upkeep.AgentEvent;
import dev.memfas.upkeep.EventOutcome;
import dev.memfas.upkeep.MaintenanceRequest;
import dev.memfas.upkeep.UsageReport;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Two tenants, one curator, random operations: nothing one tenant does or asks ever shows, changes or names the
 * other's memories, triggers, sessions or working memory. Both tenants use the same words, session ids and kinds, so
 * anything keyed on less than the namespace would leak. Over the in-memory store here; a durable store's tests extend
 * this class and give it theirs ({@link #store()}).
 */
class TenantWallsTest {
    private static final String[] TENANTS = {"acme", "globex"};
    private static final String[] WORDS = {"deploy", "billing", "kafka", "retention", "error", "timeout", "schema",
        "release", "review", "cache"};
    private static final String[] SESSIONS = {"s1", "s2"};

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-24T09:00:00Z"));

    @Test
    void randomOperations_neverCrossTheWall() {
        Random random = new Random(20261124L);
        int checks = 0;
        Memfas.Builder builder = Memfas.newBuilder().embedder(new HashingEmbedder(64)).clock(clock);
        MemoryStore store = store();
        if (store != null) {
            builder.store(store);
        }
        try (ContextCurator curator = builder.build()) {
            // Every id a tenant may see (stored and working memories), and the stored ones alone.
            Map<String, Set<String>> ids = new HashMap<>();
            Map<String, Set<String>> stored = new HashMap<>();
            for (String t : TENANTS) {
                ids.put(t, new HashSet<>());
                stored.put(t, new HashSet<>());
            }
            int next = 0;
            for (int op = 0; op < 600; op++) {
                int me = random.nextInt(2);
                String t = TENANTS[me];
                String other = TENANTS[1 - me];
                String session = SESSIONS[random.nextInt(SESSIONS.length)];
                String query = words(random, 3);
                clock.advance(Duration.ofMinutes(1 + random.nextInt(120)));
                switch (random.nextInt(14)) {
                    case 0, 1, 2 -> {
                        String id = t + "-" + next++;
                        Memory m = curator.remember(Memory.builder(marker(t) + " " + words(random, 6)).id(id)
                                .namespace(t).kind(random.nextBoolean() ? "rule" : "note")
                                .scope(random.nextBoolean() ? Scope.universal() : Scope.project("hydra")).build());
                        ids.get(t).add(m.id());
                        stored.get(t).add(m.id());
                    }
                    case 3 -> {
                        // Without an id: the duplicate rule must look only in its own namespace.
                        Memory m = curator.remember(Memory.builder(marker(t) + " " + WORDS[random.nextInt(3)])
                                .namespace(t).build());
                        ids.get(t).add(m.id());
                        stored.get(t).add(m.id());
                    }
                    case 4, 5 -> {
                        ContextResponse r = curator.getContext(ContextRequest.builder(query).namespace(t)
                                .sessionId(session).project(random.nextBoolean() ? "hydra" : null).build());
                        assertThat(r.memoryIds()).allMatch(ids.get(t)::contains);
                        assertThat(r.context()).doesNotContain(marker(other));
                        checks++;
                    }
                    case 6 -> {
                        List<RecallHit> hits = curator.recall(RecallRequest.builder(query).namespace(t).limit(20)
                                .build());
                        assertThat(hits).allMatch(h -> ids.get(t).contains(h.memory().id()));
                        assertThat(curator.memories().list(t, MemoryFilter.all(), 0, 1000))
                                .allMatch(m -> m.namespace().equals(t));
                        assertThat(curator.memories().memoryContext(t, Scope.project("hydra"), null, 200))
                                .allMatch(s -> ids.get(t).contains(s.memory().id()));
                        checks += 3;
                    }
                    case 7 -> {
                        String theirs = any(random, stored.get(other));
                        if (theirs != null) {
                            assertThat(curator.forget(t, theirs)).isFalse();
                            assertThat(curator.get(t, theirs)).isEmpty();
                            assertThat(curator.memories().history(t, theirs)).isEmpty();
                            assertThatThrownBy(() -> curator.memories().update(t, theirs, b -> b.text("taken over")))
                                    .isInstanceOf(IllegalArgumentException.class);
                            assertThatThrownBy(() -> curator.memories().promote(t, theirs, Layer.GLOBAL))
                                    .isInstanceOf(IllegalArgumentException.class);
                            assertThat(curator.get(other, theirs).orElseThrow().memory().text())
                                    .startsWith(marker(other));
                            checks += 5;
                        }
                    }
                    case 8 -> curator.triggers().add(new Trigger(WORDS[random.nextInt(WORDS.length)],
                            marker(t) + " hint", List.of(), t));
                    case 9 -> {
                        String theirs = any(random, stored.get(other));
                        if (theirs != null) {
                            long before = curator.get(other, theirs).orElseThrow().accessCount();
                            UsageReport report = curator.upkeep().reportUsage(t, session, List.of(theirs), true);
                            assertThat(report.unknown()).containsExactly(theirs);
                            assertThat(curator.get(other, theirs).orElseThrow().accessCount()).isEqualTo(before);
                            checks += 2;
                        }
                    }
                    case 10 -> {
                        Memory scratch = curator.remember(RememberRequest.of(Memory.builder(marker(t) + " scratch "
                                + words(random, 2)).namespace(t).tags("temp").build()).session(session)).memory();
                        ids.get(t).add(scratch.id());
                        assertThat(curator.memories().workingMemory(other, session))
                                .noneMatch(m -> m.id().equals(scratch.id()));
                        assertThat(curator.memories().workingMemory(t, session)).allMatch(m -> m.namespace().equals(t));
                        checks += 2;
                    }
                    case 11 -> {
                        for (Triggers.Suggestion s : curator.triggers().suggest(t)) {
                            assertThat(s.memoryIds()).allMatch(ids.get(t)::contains);
                        }
                        assertThat(curator.upkeep().orient(t, ZoneOffset.UTC).newest())
                                .allMatch(m -> m.namespace().equals(t));
                        checks += 2;
                    }
                    case 12 -> {
                        EventOutcome e = curator.upkeep()
                                .reportEvent(new AgentEvent(AgentEvent.Type.ERROR_OCCURRED, t, session,
                                marker(t) + " error " + words(random, 2), Map.of()));
                        ids.get(t).add(e.remembered().id());
                        stored.get(t).add(e.remembered().id());
                        assertThat(e.similarErrors()).allMatch(p -> p.error().namespace().equals(t));
                        checks++;
                    }
                    default -> {
                        curator.upkeep().maintain(new MaintenanceRequest(t, false, false));
                        for (String theirs : ids.get(other)) {
                            assertThat(curator.get(t, theirs)).isEmpty();
                        }
                        checks++;
                    }
                }
            }
            // Every tenant still has all it stored that was not a working memory, untouched by the other.
            for (String t : TENANTS) {
                List<StoredMemory> all = new ArrayList<>();
                for (Memory m : curator.memories().list(t, MemoryFilter.all(), 0, 1000)) {
                    all.add(curator.get(t, m.id()).orElseThrow());
                }
                assertThat(all).allMatch(s -> s.memory().text().startsWith(marker(t)));
                // A tenant's statistics count its own memories and triggers only; together they are the whole.
                assertThat(curator.stats(t).memories()).isEqualTo(all.size());
            }
            assertThat(curator.stats(TENANTS[0]).memories() + curator.stats(TENANTS[1]).memories())
                    .isEqualTo(curator.stats().memories());
            assertThat(curator.stats(TENANTS[0]).triggers() + curator.stats(TENANTS[1]).triggers())
                    .isEqualTo(curator.stats().triggers());
            assertThat(curator.stats(TENANTS[0]).turns() + curator.stats(TENANTS[1]).turns())
                    .isEqualTo(curator.stats().turns());
        }
        assertThat(checks).isGreaterThan(300);
    }

    /** The store the curator is built over, new and empty; null for the builder's default, in memory. */
    protected MemoryStore store() {
        return null;
    }

    private static String marker(String tenant) {
        return "tenant-" + tenant;
    }

    private static String words(Random random, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
        }
        return sb.toString();
    }

    private static String any(Random random, Set<String> ids) {
        if (ids.isEmpty()) {
            return null;
        }
        List<String> list = new ArrayList<>(ids);
        list.sort(null);
        return list.get(random.nextInt(list.size()));
    }
}
