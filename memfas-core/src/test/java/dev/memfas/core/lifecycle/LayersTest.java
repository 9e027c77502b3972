package dev.memfas.core.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.ContextItem;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Layer;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.RememberRequest;
import dev.memfas.Remembered;
import dev.memfas.Scope;
import dev.memfas.core.HashingEmbedder;
import dev.memfas.core.Memfas;
import dev.memfas.core.MutableClock;
import dev.memfas.core.store.InMemoryMemoryStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Working, project and global memory in a turn; the working layer's TTL and limit; promotion. */
final class LayersTest {
    private static final Instant T0 = Instant.parse("2026-11-24T09:00:00Z");
    private final MutableClock clock = new MutableClock(T0);
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final ContextCurator curator = Memfas.newBuilder().store(store).embedder(new HashingEmbedder(64))
            .clock(clock).workingMemory(Duration.ofMinutes(30), 3).build();

    @AfterEach
    void close() {
        curator.close();
    }

    private ContextResponse turn(String query, String session) {
        return curator.getContext(ContextRequest.builder(query).sessionId(session).project("hydra").build());
    }

    private static Map<String, Layer> layers(ContextResponse response) {
        return response.items().stream().collect(Collectors.toMap(ContextItem::memoryId, ContextItem::layer));
    }

    @Test
    void aTurn_drawsOnAllThreeLayers_andSaysWhichEachItemCameFrom() {
        Remembered working = curator.remember(RememberRequest.of(
                Memory.builder("deploy scratch: trying the canary flag on deploy").tags("temp").build())
                .session("s1").project("hydra"));
        Remembered project = curator.remember(RememberRequest.of(
                Memory.builder("hydra deploy decision: deploy on Tuesdays").kind("decision").build()).project("hydra"));
        Remembered global = curator.remember(RememberRequest.of(
                Memory.builder("deploy convention: tag every release before deploy").kind("convention").build())
                .project("hydra"));

        assertThat(working.layer()).isEqualTo(Layer.WORKING);
        assertThat(project.layer()).isEqualTo(Layer.PROJECT);
        assertThat(project.memory().scope()).isEqualTo(Scope.project("hydra"));
        assertThat(global.layer()).isEqualTo(Layer.GLOBAL);
        assertThat(store.get("default", working.memory().id())).isEmpty();

        Map<String, Layer> layers = layers(turn("how do we deploy?", "s1"));

        assertThat(layers).containsEntry(working.memory().id(), Layer.WORKING)
                .containsEntry(project.memory().id(), Layer.PROJECT)
                .containsEntry(global.memory().id(), Layer.GLOBAL);
        assertThat(turn("how do we deploy?", "s2").items()).extracting(ContextItem::memoryId)
                .doesNotContain(working.memory().id()).contains(project.memory().id());
    }

    @Test
    void workingMemory_expiresAfterItsTtl_onTheInjectedClock() {
        Remembered w = curator.remember(RememberRequest.of(Memory.builder("parser scratch: try the lenient parser")
                .build()).session("s1").layer(Layer.WORKING));

        assertThat(w.memory().expiresAt()).isEqualTo(T0.plus(Duration.ofMinutes(30)));
        clock.advance(Duration.ofMinutes(29));
        assertThat(layers(turn("which parser?", "s1"))).containsKey(w.memory().id());
        assertThat(curator.memories().workingMemory("s1")).extracting(Memory::id).containsExactly(w.memory().id());

        clock.advance(Duration.ofMinutes(2));
        assertThat(layers(turn("which parser?", "s1"))).doesNotContainKey(w.memory().id());
        assertThat(curator.memories().workingMemory("s1")).isEmpty();
    }

    @Test
    void beyondItsLimit_workingMemory_dropsTheLeastRecentlyUsed() {
        List<String> ids = new java.util.ArrayList<>();
        for (String text : List.of("alpha scratch note", "bravo scratch note", "charlie scratch note")) {
            ids.add(curator.remember(RememberRequest.of(Memory.builder(text).kind("scratchpad").build())
                    .session("s1")).memory().id());
            clock.advance(Duration.ofSeconds(1));
        }
        // A use of alpha makes bravo the least recently used.
        assertThat(curator.upkeep().reportUsage("s1", List.of(ids.get(0)), true).recorded())
                .containsExactly(ids.get(0));

        String delta = curator.remember(RememberRequest.of(Memory.builder("delta scratch note").kind("scratchpad")
                .build()).session("s1")).memory().id();

        assertThat(curator.memories().workingMemory("s1")).extracting(Memory::id)
                .containsExactlyInAnyOrder(ids.get(0), ids.get(2), delta);
    }

    @Test
    void promotingWorkingMemory_storesIt_withoutTheWorkingTtl() {
        Remembered w = curator.remember(RememberRequest.of(Memory.builder("the flaky test is OrderIT").build())
                .session("s1").project("hydra").layer(Layer.WORKING));

        Memory promoted = curator.memories().promote("default", w.memory().id(), Layer.PROJECT);

        assertThat(promoted.id()).isEqualTo(w.memory().id());
        assertThat(promoted.expiresAt()).isNull();
        assertThat(promoted.scope()).isEqualTo(Scope.project("hydra"));
        assertThat(store.get("default", promoted.id())).isPresent();
        assertThat(curator.memories().workingMemory("s1")).isEmpty();
        clock.advance(Duration.ofHours(2));
        assertThat(layers(turn("which test is flaky?", "s9"))).containsEntry(promoted.id(), Layer.PROJECT);
    }

    @Test
    void promotingAProjectMemory_makesItGlobal_andKeepsTheVersionBefore() {
        Memory project = curator.remember(RememberRequest.of(Memory.builder("retry idempotent calls only")
                .kind("decision").build()).project("hydra")).memory();

        Memory global = curator.memories().promote("default", project.id(), Layer.GLOBAL);

        assertThat(global.scope()).isEqualTo(Scope.universal());
        assertThat(Layer.of(global)).isEqualTo(Layer.GLOBAL);
        assertThat(curator.memories().history("default", project.id())).hasSize(2)
                .first().satisfies(v -> assertThat(v.memory().scope()).isEqualTo(Scope.project("hydra")));
        assertThat(curator.memories().promote("default", project.id(), Layer.GLOBAL)).isEqualTo(global);
    }

    @Test
    void promotion_refusesToMoveDown_orWhatItCannotPlace() {
        Memory global = curator.remember(Memory.builder("prefer records for values").build());
        Remembered unscoped = curator.remember(RememberRequest.of(Memory.builder("scratch without a project")
                .build()).session("s1").layer(Layer.WORKING));

        assertThatThrownBy(() -> curator.memories().promote("default", global.id(), Layer.PROJECT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("global already");
        assertThatThrownBy(() -> curator.memories().promote("default", global.id(), Layer.WORKING))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lowest layer");
        assertThatThrownBy(() -> curator.memories().promote("default", unscoped.memory().id(), Layer.PROJECT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no project scope");
        assertThatThrownBy(() -> curator.memories().promote("default", "nope", Layer.GLOBAL))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has no memory 'nope'");
        assertThat(curator.memories().workingMemory("s1")).hasSize(1);
    }

    @Test
    void forget_dropsAWorkingMemory_andFeedbackCountsItsUse() {
        Remembered w = curator.remember(RememberRequest.of(Memory.builder("cache scratch: the TTL is 5 s")
                .build()).session("s1").layer(Layer.WORKING));

        assertThat(curator.upkeep().reportUsage("s1", List.of(w.memory().id()), true).recorded())
                .containsExactly(w.memory().id());
        assertThat(curator.forget(Memory.DEFAULT_NAMESPACE, w.memory().id())).isTrue();
        assertThat(curator.memories().workingMemory("s1")).isEmpty();
        assertThat(curator.memories().list("default", MemoryFilter.all(), 0, 10)).isEmpty();
    }

    @Test
    void aWorkingMemoryThatExpiredAlready_isRefused() {
        Memory stale = Memory.builder("too late").expiresAt(T0.minusSeconds(1)).build();

        assertThatThrownBy(() -> curator.remember(RememberRequest.of(stale).session("s1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expired at");
    }
}
