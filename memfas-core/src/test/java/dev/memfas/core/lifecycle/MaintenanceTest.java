package dev.memfas.core.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.RecallRequest;
import dev.memfas.core.HashingEmbedder;
import dev.memfas.core.Memfas;
import dev.memfas.core.MutableClock;
import dev.memfas.core.store.InMemoryMemoryStore;
import dev.memfas.policy.RetentionPolicy;
import dev.memfas.spi.StoredMemory;
import dev.memfas.upkeep.MaintenanceReport;
import dev.memfas.upkeep.MaintenanceRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Retention, archiving, restoring and purging on a fixed clock. */
final class MaintenanceTest {
    private static final Instant NOW = Instant.parse("2026-11-20T12:00:00Z");

    private final MutableClock clock = new MutableClock(NOW);
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final HashingEmbedder embedder = new HashingEmbedder(64);
    private ContextCurator curator;

    @BeforeEach
    void open() {
        curator = Memfas.newBuilder().store(store).clock(clock).embedder(embedder).build();
    }

    @AfterEach
    void close() {
        curator.close();
    }

    private static Memory aged(String id, String text, int days) {
        return Memory.builder(text).id(id).createdAt(NOW.minus(Duration.ofDays(days))).build();
    }

    private static Map<String, MaintenanceReport.Kind> kinds(MaintenanceReport r) {
        return r.actions().stream().collect(Collectors.toMap(MaintenanceReport.Action::memoryId,
                MaintenanceReport.Action::kind));
    }

    private void seed() {
        curator.rememberAll(List.of(
                aged("old", "The old build server was called jenkins-2", 400),
                aged("new", "The build server is called ci-7", 10),
                aged("once", "Standup moved to 9:30 for the autumn", 400),
                aged("used", "Deploys need a green build on main", 400),
                aged("pinned", "Never deploy on Fridays", 400).toBuilder().pinned(true).build(),
                aged("important", "The payments key rotates every 90 days", 250).toBuilder().importance(1.0).build(),
                aged("expiring", "The staging database is down until noon", 1).toBuilder()
                        .expiresAt(NOW.plusSeconds(60)).build()));
        // Expired: out of every turn, kept until maintenance archives it.
        clock.advance(Duration.ofMinutes(2));
        // Used once, long ago: that alone does not keep a memory.
        store.recordAccess("default", List.of("once"), NOW.minus(Duration.ofDays(300)));
        // Used often and lately.
        store.recordAccess("default", List.of("used", "used", "used", "used"), NOW.minus(Duration.ofDays(3)));
    }

    @Test
    void retention_followsAgeAndRecentUse_notOneAccessLongAgo() {
        RetentionPolicy p = RetentionPolicy.defaults();
        Memory m = aged("m", "x", 90);
        assertThat(p.retention(new StoredMemory(m, 0, null, 1), NOW)).isCloseTo(0.5, within(1e-9));
        // An access long ago adds nothing to what age gives.
        assertThat(p.retention(new StoredMemory(m, 1, NOW.minus(Duration.ofDays(600)), 1), NOW))
                .isCloseTo(0.5, within(1e-9));
        assertThat(p.retention(new StoredMemory(aged("m", "x", 900), 1, NOW.minus(Duration.ofDays(900)), 1), NOW))
                .isLessThan(0.01);
        assertThat(p.retention(new StoredMemory(aged("m", "x", 900), 20, NOW, 1), NOW)).isGreaterThan(0.9);
        assertThat(p.retention(new StoredMemory(m.toBuilder().pinned(true).build(), 0, null, 1), NOW.plus(
                Duration.ofDays(10_000)))).isEqualTo(1);
        assertThatThrownBy(() -> new RetentionPolicy(Duration.ZERO, Duration.ofDays(1), 0.1))
                .isInstanceOf(IllegalArgumentException.class)
                        .hasMessage("a retention half-life must be positive: PT0S");
        assertThatThrownBy(() -> new RetentionPolicy(Duration.ofDays(1), Duration.ofDays(1), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("archiveBelow must be in [0, 1): 1.0");
    }

    @Test
    void dryRun_reportsWhatItWouldDo_andChangesNothing() {
        seed();

        MaintenanceReport r = curator.upkeep().maintain(MaintenanceRequest.of("default").asDryRun());

        assertThat(r.dryRun()).isTrue();
        assertThat(kinds(r)).containsExactlyInAnyOrderEntriesOf(Map.of("old", MaintenanceReport.Kind.ARCHIVE,
                "once", MaintenanceReport.Kind.ARCHIVE, "expiring", MaintenanceReport.Kind.EXPIRE));
        assertThat(r.examined()).isEqualTo(6);
        assertThat(r.archived()).isEqualTo(2);
        assertThat(r.expired()).isEqualTo(1);
        assertThat(r.pinned()).isEqualTo(1);
        assertThat(r.purged()).isZero();
        assertThat(store.count("default")).isEqualTo(7);
        assertThat(store.get("default", "old").orElseThrow().memory().isArchived()).isFalse();
    }

    @Test
    void maintain_archivesWhatAgedOut_hidesIt_keepsIt_andRestoreBringsItBack() {
        seed();
        int embedded = embedder.calls.get();

        MaintenanceReport r = curator.upkeep().maintain(MaintenanceRequest.of("default"));

        assertThat(r.archived()).isEqualTo(2);
        assertThat(r.expired()).isEqualTo(1);
        assertThat(embedder.calls.get()).as("archiving embeds nothing").isEqualTo(embedded);
        assertThat(store.get("default", "expiring").orElseThrow().memory().isArchived()).isTrue();
        assertThat(store.get("default", "old").orElseThrow().memory().archivedAt()).isEqualTo(clock.instant());
        assertThat(curator.recall(RecallRequest.builder("old build server jenkins").limit(10).build()))
                .extracting(h -> h.memory().id())
                .doesNotContain("old");
        assertThat(curator.getContext("what was the old build server called?", "s").memoryIds())
                .doesNotContain("old");
        assertThat(curator.memories().list("default", MemoryFilter.all().archived(true), 0, 10)).extracting(Memory::id)
                .containsExactlyInAnyOrder("old", "once", "expiring");
        assertThat(curator.memories().history("default", "old")).last().extracting(v -> v.changed())
                .isEqualTo(List.of("archivedAt"));

        Memory restored = curator.memories().restore("default", "old");

        assertThat(restored.isArchived()).isFalse();
        assertThat(curator.recall(RecallRequest.builder("old build server jenkins").limit(10).build()))
                .extracting(h -> h.memory().id()).contains("old");
        assertThat(curator.upkeep().maintain(MaintenanceRequest.of("default")).actions()).isEmpty();
        assertThatThrownBy(() -> curator.memories().restore("default", "new"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("memory 'new' is not archived");
        assertThatThrownBy(() -> curator.memories().restore("default", "nope"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no memory 'nope' in namespace 'default'");
    }

    @Test
    void anExpiredMemory_pinnedOrNot_isArchivedAndReported_neverDeletedByAWrite_andRestoreLiftsTheExpiry() {
        curator.rememberAll(List.of(
                aged("rule", "Freeze deploys during the audit", 1).toBuilder().pinned(true)
                        .expiresAt(NOW.plusSeconds(60)).build(),
                aged("note", "The staging database is down until noon", 1).toBuilder()
                        .expiresAt(NOW.plusSeconds(60)).build()));
        clock.advance(Duration.ofMinutes(2));
        curator.remember(aged("later", "Deploys resume on Monday", 0));

        assertThat(store.get("default", "rule")).as("a write deletes nothing").isPresent();
        assertThat(curator.memories().history("default", "rule")).isNotEmpty();
        assertThat(curator.getContext("are deploys frozen for the audit?", "s").memoryIds()).doesNotContain("rule");

        MaintenanceReport r = curator.upkeep().maintain(MaintenanceRequest.of("default"));

        assertThat(kinds(r)).containsEntry("rule", MaintenanceReport.Kind.EXPIRE)
                .containsEntry("note", MaintenanceReport.Kind.EXPIRE);
        assertThat(r.expired()).isEqualTo(2);
        assertThat(store.get("default", "rule").orElseThrow().memory().isArchived()).isTrue();
        assertThat(curator.memories().history("default", "rule")).last().extracting(v -> v.changed())
                .isEqualTo(List.of("archivedAt"));

        Memory restored = curator.memories().restore("default", "rule");

        assertThat(restored.expiresAt()).as("the expiry that passed is lifted").isNull();
        assertThat(restored.pinned()).isTrue();
        assertThat(curator.getContext("are deploys frozen for the audit?", "s").memoryIds()).contains("rule");
    }

    @Test
    void purge_deletesWhatFallsBelow_andWhatWasArchived() {
        seed();
        curator.upkeep().maintain(MaintenanceRequest.of("default"));
        clock.advance(Duration.ofDays(200));

        MaintenanceReport r = curator.upkeep().maintain(MaintenanceRequest.of("default").purging());

        assertThat(kinds(r)).containsEntry("old", MaintenanceReport.Kind.PURGE)
                .containsEntry("once", MaintenanceReport.Kind.PURGE).doesNotContainKeys("pinned");
        assertThat(store.get("default", "old")).isEmpty();
        assertThat(store.get("default", "pinned")).isPresent();
        assertThat(r.purged()).isEqualTo(r.actions().size());
    }

    @Test
    void supersede_doesNotEmbedTheOldMemoryAgain() {
        curator.remember(aged("dev", "Checkout-api owner is Dev", 30));
        int before = embedder.calls.get();

        curator.memories().supersede("dev", Memory.builder("Aiko now owns checkout-api").build());

        assertThat(embedder.calls.get()).isEqualTo(before + 1);
    }
}
