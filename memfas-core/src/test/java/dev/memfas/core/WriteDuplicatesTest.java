package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.Scope;
import dev.memfas.core.store.InMemoryMemoryStore;
import dev.memfas.policy.DuplicatePolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Write-time duplicates: what {@code remember} stores when a memory says what a stored one says. */
final class WriteDuplicatesTest {
    private static final Instant NOW = Instant.parse("2026-11-20T12:00:00Z");

    private final MutableClock clock = new MutableClock(NOW);
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private ContextCurator curator;

    @AfterEach
    void close() {
        curator.close();
    }

    private ContextCurator curator(Memfas.Builder builder) {
        curator = builder.store(store).clock(clock).build();
        return curator;
    }

    private List<Memory> stored() {
        List<Memory> all = new ArrayList<>();
        store.forEach("default", MemoryFilter.all(), all::add);
        return all;
    }

    private long evidence(String id) {
        return store.get("default", id).orElseThrow().evidenceCount();
    }

    @Test
    void exactDuplicate_isNotStored_theStoredOneIsReturned_withMoreEvidence() {
        curator(Memfas.newBuilder().embedder(new HashingEmbedder(64)));
        Memory first = curator.remember(Memory.builder("Deploys run on Fridays.").build());
        clock.advance(Duration.ofHours(1));

        Memory again = curator.remember(Memory.builder("deploys   run on FRIDAYS").build());
        List<Memory> batch = curator.rememberAll(List.of(Memory.builder("Deploys run on Fridays!").build(),
                Memory.builder("Lunch is at noon.").build(), Memory.builder("Lunch is at noon").build()));

        assertThat(again).isEqualTo(first);
        assertThat(batch.get(0)).isEqualTo(first);
        assertThat(batch.get(2)).isEqualTo(batch.get(1));
        assertThat(stored()).hasSize(2);
        assertThat(evidence(first.id())).isEqualTo(3);
        assertThat(evidence(batch.get(1).id())).isEqualTo(2);
    }

    @Test
    void withoutAnEmbedder_exactDuplicatesAreFoundByText() {
        curator(Memfas.newBuilder());
        Memory first = curator.remember(Memory.builder("Retention is seven days on the orders topic.").build());

        assertThat(curator.remember(Memory.builder("Retention is seven days on the orders topic").build()))
                .isEqualTo(first);
        assertThat(stored()).hasSize(1);
        assertThat(evidence(first.id())).isEqualTo(2);
    }

    @Test
    void distinctRecords_areNeverMerged_byDefault() {
        curator(Memfas.newBuilder().embedder(new HashingEmbedder(64)));
        curator.rememberAll(List.of(
                Memory.builder("Yes.").source("conversation-1").createdAt(NOW.minus(Duration.ofDays(2))).build(),
                Memory.builder("Yes.").source("conversation-2").createdAt(NOW.minus(Duration.ofDays(2))).build(),
                // the same words said at another moment of the same conversation: another event
                Memory.builder("Yes.").source("conversation-1").createdAt(NOW.minus(Duration.ofDays(1))).build(),
                Memory.builder("Yes.").source("conversation-1").kind("decision")
                        .createdAt(NOW.minus(Duration.ofDays(2))).build(),
                Memory.builder("Yes.").source("conversation-1").scope(Scope.project("ledger"))
                        .createdAt(NOW.minus(Duration.ofDays(2))).build(),
                // a memory given an id is stored under it
                Memory.builder("Yes.").id("named").source("conversation-1")
                        .createdAt(NOW.minus(Duration.ofDays(2))).build()));

        assertThat(stored()).hasSize(6);
        Memory dated = Memory.builder("Yes.").source("conversation-1").createdAt(NOW.minus(Duration.ofDays(2)))
                .build();
        // the same record said again at the same moment is a duplicate
        Memory same = curator.remember(dated);
        assertThat(stored()).hasSize(6);
        assertThat(evidence(same.id())).isEqualTo(2);
    }

    @Test
    void aSupersededOrExpiredMemory_isNoDuplicate_ofOneSaidAgain() {
        curator(Memfas.newBuilder());
        Memory old = curator.remember(Memory.builder("Owner is Dev.").build());
        curator.memories().supersede(old.id(), Memory.builder("Owner is Aiko.").build());
        curator.remember(Memory.builder("Retention is 7 days.").expiresAt(NOW.plusSeconds(60)).build());
        clock.advance(Duration.ofMinutes(2));

        Memory again = curator.remember(Memory.builder("Owner is Dev.").build());
        Memory retention = curator.remember(Memory.builder("Retention is 7 days.").build());

        assertThat(again.id()).isNotEqualTo(old.id());
        assertThat(retention.expiresAt()).isNull();
        // The expired memory is kept, out of every turn, until maintenance archives it.
        assertThat(stored()).extracting(Memory::text).containsExactlyInAnyOrder("Owner is Dev.", "Owner is Aiko.",
                "Owner is Dev.", "Retention is 7 days.", "Retention is 7 days.");
    }

    @Test
    void keepAll_storesEveryMemory() {
        curator(Memfas.newBuilder().writeDuplicates(DuplicatePolicy.keepAll()));
        curator.remember(Memory.builder("Deploys run on Fridays.").build());
        curator.remember(Memory.builder("Deploys run on Fridays.").build());

        assertThat(stored()).hasSize(2);
    }

    @Test
    void similar_areSkippedOrMerged_onlyWhenThePolicySaysSo() {
        HashingEmbedder embedder = new HashingEmbedder(64);
        String first = "kafka retention seven days orders topic";
        String close = "kafka retention seven days orders topic partitions";
        double cosine = cosine(embedder.embedAll(List.of(first)).get(0), embedder.embedAll(List.of(close)).get(0));
        assertThat(cosine).isBetween(0.8, 0.999);

        curator(Memfas.newBuilder().embedder(embedder));
        Memory a = curator.remember(Memory.builder(first).build());
        assertThat(curator.remember(Memory.builder(close).build()).id()).isNotEqualTo(a.id());
        curator.close();

        InMemoryMemoryStore skipping = new InMemoryMemoryStore();
        curator = Memfas.newBuilder().store(skipping).clock(clock).embedder(embedder)
                .writeDuplicates(DuplicatePolicy.skipSimilar(cosine - 0.01)).build();
        Memory kept = curator.remember(Memory.builder(first).build());
        assertThat(curator.remember(Memory.builder(close).build())).isEqualTo(kept);
        assertThat(skipping.count("default")).isEqualTo(1);
        curator.close();

        InMemoryMemoryStore merging = new InMemoryMemoryStore();
        curator = Memfas.newBuilder().store(merging).clock(clock).embedder(embedder)
                .writeDuplicates(DuplicatePolicy.mergeSimilar(cosine - 0.01)).build();
        Memory original = curator.remember(Memory.builder(first).build());
        clock.advance(Duration.ofMinutes(5));
        Memory merged = curator.remember(Memory.builder(close).build());
        assertThat(merged.id()).isEqualTo(original.id());
        assertThat(merged.text()).isEqualTo(close);
        assertThat(merged.createdAt()).isEqualTo(original.createdAt());
        assertThat(merging.count("default")).isEqualTo(1);
        assertThat(merging.get("default", original.id()).orElseThrow().evidenceCount()).isEqualTo(2);
        assertThat(curator.memories().history("default", original.id())).extracting(v -> v.memory().text())
                .containsExactly(first, close);
    }

    @Test
    void policy_rejectsASimilarityOutOfRange() {
        assertThatThrownBy(() -> DuplicatePolicy.skipSimilar(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("duplicate similarity must be in (0, 1]: 0.0");
        assertThatThrownBy(() -> DuplicatePolicy.mergeSimilar(1.5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("duplicate similarity must be in (0, 1]: 1.5");
        curator = Memfas.newBuilder().build();
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }
}
