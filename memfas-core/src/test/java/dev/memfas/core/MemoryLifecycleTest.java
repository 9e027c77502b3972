package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Memories;
import dev.memfas.Memory;
import dev.memfas.RecallHit;
import dev.memfas.RecallRequest;
import dev.memfas.core.store.InMemoryMemoryStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Validity, supersession, updates and their history, on a fixed clock. */
final class MemoryLifecycleTest {
    private static final Instant NOW = Instant.parse("2026-11-20T12:00:00Z");

    private final MutableClock clock = new MutableClock(NOW);
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private ContextCurator curator;

    @BeforeEach
    void open() {
        curator = Memfas.newBuilder().store(store).clock(clock).embedder(new HashingEmbedder(64)).build();
    }

    @AfterEach
    void close() {
        curator.close();
    }

    private static Memory dated(String id, String text, Instant createdAt) {
        return Memory.builder(text).id(id).createdAt(createdAt).build();
    }

    private List<String> recalled(RecallRequest.Builder request) {
        return curator.recall(request.build()).stream().map(h -> h.memory().id()).toList();
    }

    private ContextResponse turn(ContextRequest.Builder request) {
        return curator.getContext(request.sessionId("s").recordAccess(false).build());
    }

    @Test
    void supersededOwner_isLeftOut_andShownWithItsReplacementOnlyWhenAsked() {
        curator.remember(dated("dev", "Checkout-api owner is Dev", NOW.minus(Duration.ofDays(30))));
        curator.remember(dated("lunch", "Lunch is at noon", NOW.minus(Duration.ofDays(30))));
        clock.advance(Duration.ofMinutes(1));

        Memory aiko = curator.memories()
                .supersede("dev", Memory.builder("Aiko now owns checkout-api").id("aiko").build());

        assertThat(aiko.supersedes()).containsExactly("dev");
        Memory dev = curator.get("default", "dev").orElseThrow().memory();
        assertThat(dev.supersededBy()).isEqualTo("aiko");
        assertThat(dev.validUntil()).isEqualTo(aiko.createdAt());
        assertThat(recalled(RecallRequest.builder("checkout-api owner"))).startsWith("aiko").doesNotContain("dev");
        assertThat(turn(ContextRequest.builder("checkout-api owner")).memoryIds()).startsWith("aiko")
                .doesNotContain("dev");

        List<RecallHit> all = curator.recall(RecallRequest.builder("checkout-api owner").includeSuperseded(true)
                .build());
        assertThat(all).extracting(h -> h.memory().id()).contains("aiko", "dev");
        ContextResponse withOld = turn(ContextRequest.builder("checkout-api owner").includeSuperseded(true));
        assertThat(withOld.memoryIds()).contains("aiko", "dev");
        assertThat(withOld.context()).contains("<memory id=\"dev\" date=\"2026-10-21\" valid-until=\"2026-11-20\""
                + " superseded-by=\"aiko\">Checkout-api owner is Dev</memory>");
    }

    @Test
    void asOf_showsTheWorldAsItWasThen() {
        Instant before = NOW.minus(Duration.ofDays(10));
        curator.remember(dated("dev", "Checkout-api owner is Dev", NOW.minus(Duration.ofDays(30))));
        curator.memories().supersede("dev", Memory.builder("Aiko now owns checkout-api").id("aiko")
                .createdAt(NOW.minus(Duration.ofDays(5))).build());

        assertThat(recalled(RecallRequest.builder("checkout-api owner").asOf(before))).containsExactly("dev");
        assertThat(turn(ContextRequest.builder("checkout-api owner").asOf(before)).memoryIds())
                .containsExactly("dev");
        assertThat(recalled(RecallRequest.builder("checkout-api owner"))).containsExactly("aiko");
        assertThat(recalled(RecallRequest.builder("checkout-api owner").includeSuperseded(true)))
                .containsOnly("aiko", "dev");
    }

    @Test
    void validityWindow_leavesOutWhatIsNotYetOrNoLongerTrue() {
        curator.rememberAll(List.of(
                Memory.builder("The freeze on deploys lasts until Friday").id("past").createdAt(NOW.minus(
                        Duration.ofDays(9))).validUntil(NOW.minus(Duration.ofDays(2))).build(),
                Memory.builder("From next month deploys need two approvals").id("future").createdAt(NOW)
                        .validFrom(NOW.plus(Duration.ofDays(11))).build(),
                Memory.builder("Deploys run from the main branch").id("now").createdAt(NOW).build()));

        assertThat(recalled(RecallRequest.builder("deploys"))).containsExactly("now");
        assertThat(recalled(RecallRequest.builder("deploys").includeSuperseded(true))).containsOnly("now", "past");
        clock.advance(Duration.ofDays(12));
        assertThat(recalled(RecallRequest.builder("deploys"))).containsOnly("now", "future");
    }

    @Test
    void supersede_refusesWhatWouldBreakTheChain_andStoresNothing() {
        curator.remember(dated("a", "Owner is Dev", NOW.minus(Duration.ofDays(3))));
        curator.memories().supersede("a", Memory.builder("Owner is Aiko").id("b").build());

        assertThatThrownBy(() -> curator.memories().supersede("a", Memory.builder("Owner is Kim").id("c").build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("memory 'a' is already superseded by 'b'; supersede that one instead");
        assertThatThrownBy(() -> curator.memories().supersede("missing", Memory.builder("x").build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no memory 'missing' in namespace 'default'");
        assertThatThrownBy(() -> curator.memories().supersede("b", Memory.builder("Owner is Aiko").id("b").build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot supersede itself");
        Memory early = curator.remember(Memory.builder("Owner is Sam").id("sam")
                .validFrom(NOW.minus(Duration.ofDays(1))).build());
        assertThatThrownBy(() -> curator.memories().supersede(early.id(), Memory.builder("Owner is Lee").id("lee")
                .validFrom(NOW.minus(Duration.ofDays(2))).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not after the memory did");
        assertThat(curator.get("default", "c")).isEmpty();
        assertThat(curator.get("default", "lee")).isEmpty();
        assertThat(curator.get("default", "sam").orElseThrow().memory().supersededBy()).isNull();
    }

    @Test
    void update_keepsEveryStateAsAVersion_withWhoWhenAndWhat() {
        curator.remember(Memory.builder("Retention is 7 days").id("r").author("ana")
                .createdAt(NOW.minus(Duration.ofDays(2))).build());
        clock.advance(Duration.ofHours(1));
        Memory changed = curator.memories().update("default", "r", b -> b.text("Retention is 14 days").author("raj"));
        clock.advance(Duration.ofHours(1));
        curator.memories().update("default", "r", b -> b.tags("kafka"));

        assertThat(changed.updatedAt()).isEqualTo(NOW.plus(Duration.ofHours(1)));
        assertThat(changed.createdAt()).isEqualTo(NOW.minus(Duration.ofDays(2)));
        List<Memories.Version> history = curator.memories().history("default", "r");
        assertThat(history).extracting(Memories.Version::version).containsExactly(1, 2, 3);
        assertThat(history).extracting(v -> v.memory().text())
                .containsExactly("Retention is 7 days", "Retention is 14 days", "Retention is 14 days");
        assertThat(history).extracting(v -> v.memory().author()).containsExactly("ana", "raj", "raj");
        assertThat(history).extracting(Memories.Version::changed)
                .containsExactly(List.of(), List.of("text", "author"), List.of("tags"));
        assertThat(history.get(2).memory().updatedAt()).isEqualTo(NOW.plus(Duration.ofHours(2)));
        assertThat(curator.memories().history("default", "missing")).isEmpty();
    }

    @Test
    void update_thatChangesNothing_orMovesTheMemory_writesNothing() {
        Memory r = curator.remember(dated("r", "Retention is 7 days", NOW.minus(Duration.ofDays(2))));

        assertThat(curator.memories().update("default", "r", b -> b.text("Retention is 7 days"))).isEqualTo(r);
        assertThatThrownBy(() -> curator.memories().update("default", "r", b -> b.id("s")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("an update cannot move memory 'r' of namespace 'default' to 's' of 'default'");
        assertThatThrownBy(() -> curator.memories().update("default", "nope", b -> b))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("no memory 'nope' in namespace 'default'");
        assertThat(curator.memories().history("default", "r")).hasSize(1);
        assertThat(curator.get("default", "s")).isEmpty();
    }

    @Test
    void rememberingTheSameMemoryAgain_addsNoVersion_andAReplacementKeepsItsCreationTime() {
        Memory first = curator.remember(Memory.builder("Deploys run on Fridays").id("d").build());
        clock.advance(Duration.ofDays(1));

        assertThat(curator.remember(Memory.builder("Deploys run on Fridays").id("d").build())).isEqualTo(first);
        Memory second = curator.remember(Memory.builder("Deploys run on Thursdays").id("d").build());

        assertThat(second.createdAt()).isEqualTo(first.createdAt());
        assertThat(second.updatedAt()).isEqualTo(NOW.plus(Duration.ofDays(1)));
        assertThat(curator.memories().history("default", "d")).extracting(v -> v.memory().text())
                .containsExactly("Deploys run on Fridays", "Deploys run on Thursdays");
    }

    @Test
    void forget_deletesTheHistoryToo() {
        curator.remember(dated("r", "Retention is 7 days", NOW));
        curator.memories().update("default", "r", b -> b.text("Retention is 14 days"));

        curator.forget("default", "r");

        assertThat(curator.memories().history("default", "r")).isEmpty();
        assertThat(store.versions("default", "r")).isEmpty();
    }
}
