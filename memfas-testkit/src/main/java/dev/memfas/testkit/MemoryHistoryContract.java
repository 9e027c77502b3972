package dev.memfas.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.Memory;
import dev.memfas.spi.Embeddings;
import dev.memfas.spi.LexicalHit;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.StoredMemory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The part of the {@link MemoryStoreContract} on a memory's history and use: every replaced state kept as a version
 * (and deleted with the memory), archiving in place, evidence counts, and the namespaces' key-value state. JUnit runs
 * these default methods on every store test, as the contract implements this interface.
 */
interface MemoryHistoryContract {
    /** The time the contract's memories are created at (the contract's {@code T0} is this one). */
    Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    /** The store under test. */
    MemoryStore store();

    private static Memory memory(String id, String text) {
        return MemoryStoreContract.memory(id, text);
    }

    private static Memory memory(String namespace, String id, String text) {
        return MemoryStoreContract.memory(namespace, id, text);
    }

    @Test
    default void upsertAll_sameId_keepsEachReplacedStateAsAVersion_oldestFirst() {
        Memory first = memory("a", "first version");
        Memory second = first.toBuilder().text("second version").updatedAt(T0.plusSeconds(10)).build();
        Memory third = second.toBuilder().validUntil(T0.plusSeconds(20)).supersededBy("b")
                .updatedAt(T0.plusSeconds(20)).build();
        store().upsertAll(List.of(first));
        assertThat(store().versions(Memory.DEFAULT_NAMESPACE, "a")).isEmpty();

        store().upsertAll(List.of(second));
        store().upsertAll(List.of(third));

        assertThat(store().versions(Memory.DEFAULT_NAMESPACE, "a")).containsExactly(first, second);
        assertThat(store().get(Memory.DEFAULT_NAMESPACE, "a").orElseThrow().memory()).isEqualTo(third);
        assertThat(store().versions(Memory.DEFAULT_NAMESPACE, "missing")).isEmpty();
        assertThat(store().versions("elsewhere", "a")).isEmpty();
    }

    @Test
    default void recordEvidence_countsEachOccurrence_survivesAReplace_andIgnoresUnknownIds() {
        store().upsertAll(List.of(memory("a", "alpha"), memory("other", "a", "other tenant")));
        assertThat(store().get(Memory.DEFAULT_NAMESPACE, "a").orElseThrow().evidenceCount()).isEqualTo(1);

        store().recordEvidence(Memory.DEFAULT_NAMESPACE, List.of("a", "a", "missing"));
        store().recordEvidence("nowhere", List.of("a"));
        store().upsertAll(List.of(memory("a", "alpha, replaced")));

        assertThat(store().get(Memory.DEFAULT_NAMESPACE, "a").orElseThrow().evidenceCount()).isEqualTo(3);
        assertThat(store().get("other", "a").orElseThrow().evidenceCount()).isEqualTo(1);
        assertThat(store().get(Memory.DEFAULT_NAMESPACE, "missing")).isEmpty();
    }

    @Test
    default void archive_marksOnlyLiveMemories_keepsTheStateBefore_theVectorAndTheStatistics() {
        Memory a = memory("a", "kafka retention is seven days");
        store().upsertAll(List.of(a, memory("b", "grafana dashboards"), memory("other", "a", "other tenant")),
                Embeddings.of(MemoryStoreContract.SPACE,
                        List.of(new float[] {1, 0, 0}, new float[] {0, 1, 0}, new float[] {0, 0, 1})));
        store().recordAccess(Memory.DEFAULT_NAMESPACE, List.of("a"), T0.plusSeconds(5));
        Instant at = T0.plusSeconds(60);

        assertThat(store().archive(Memory.DEFAULT_NAMESPACE, List.of("a", "missing", "a"), at)).containsExactly("a");
        assertThat(store().archive(Memory.DEFAULT_NAMESPACE, List.of("a", "b"), at.plusSeconds(1)))
                .containsExactly("b");

        StoredMemory got = store().get(Memory.DEFAULT_NAMESPACE, "a").orElseThrow();
        assertThat(got.memory()).isEqualTo(a.toBuilder().archivedAt(at).updatedAt(at).build());
        assertThat(got.accessCount()).isEqualTo(1);
        assertThat(store().versions(Memory.DEFAULT_NAMESPACE, "a")).containsExactly(a);
        assertThat(store().get("other", "a").orElseThrow().memory().isArchived()).isFalse();
        List<String> withVectors = new ArrayList<>();
        store().forEachVector(Memory.DEFAULT_NAMESPACE, (id, v) -> withVectors.add(id));
        assertThat(withVectors).containsExactlyInAnyOrder("a", "b");
        assertThat(store().searchLexical(Memory.DEFAULT_NAMESPACE, "kafka", 10)).extracting(LexicalHit::memoryId)
                .containsExactly("a");
    }

    @Test
    default void state_isKeptPerNamespace_andReplaced() {
        store().saveState("a", "last_seen", "2026-11-01T00:00:00Z");
        store().saveState("a", "last_seen", "2026-11-02T00:00:00Z");
        store().saveState("b", "last_seen", "other");

        assertThat(store().loadState("a", "last_seen")).hasValue("2026-11-02T00:00:00Z");
        assertThat(store().loadState("b", "last_seen")).hasValue("other");
        assertThat(store().loadState("a", "missing")).isEmpty();
        assertThat(store().loadState("c", "last_seen")).isEmpty();
        assertThatThrownBy(() -> store().saveState("a", " ", "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("state key must be 1 to 512 chars and not blank: ' '");
    }

    @Test
    default void state_isListedWithItsTimeAndSize_searchedByGlob_deletedAndCleared() {
        Instant at = Instant.parse("2026-11-24T09:30:15.123456789Z");
        String longValue = "{\"notes\": \"" + "x".repeat(200) + "\"}";
        store().saveState("a", "session/1/topic", "\"kafka\"", at);
        store().saveState("a", "session/2/topic", "\"deploys\"", at.plusSeconds(60));
        store().saveState("a", "budget", longValue, at);
        store().saveState("a", "memfas.last_seen", "2026-11-01T00:00:00Z", at);
        store().saveState("b", "session/1/topic", "\"other\"", at);

        List<dev.memfas.State.Entry> listed = store().listState("a", true);
        assertThat(listed).extracting(dev.memfas.State.Entry::key)
                .containsExactly("budget", "memfas.last_seen", "session/1/topic", "session/2/topic");
        dev.memfas.State.Entry budget = listed.get(0);
        assertThat(budget.updatedAt()).isEqualTo(Instant.parse("2026-11-24T09:30:15Z"));
        assertThat(budget.size()).isEqualTo(longValue.length());
        assertThat(budget.preview()).isEqualTo(longValue.substring(0, dev.memfas.State.Entry.PREVIEW_CHARS));
        assertThat(store().listState("a", false)).allMatch(e -> e.preview() == null);
        assertThat(store().listState("a", false).get(3).updatedAt()).isEqualTo(Instant.parse("2026-11-24T09:31:15Z"));

        assertThat(store().searchState("a", "session/*/topic", 10))
                .containsExactly(java.util.Map.entry("session/1/topic", "\"kafka\""),
                        java.util.Map.entry("session/2/topic", "\"deploys\""));
        assertThat(store().searchState("a", "session/[2-9]/topic", 10)).containsOnlyKeys("session/2/topic");
        assertThat(store().searchState("a", "session/?/topic", 1)).containsOnlyKeys("session/1/topic");
        assertThat(store().searchState("a", "Session*", 10)).isEmpty();
        assertThat(store().searchState("b", "*", 10)).containsOnlyKeys("session/1/topic");

        assertThat(store().deleteState("a", "budget")).isTrue();
        assertThat(store().deleteState("a", "budget")).isFalse();
        assertThat(store().clearState("a", "memfas.")).isEqualTo(2);
        assertThat(store().listState("a", false)).extracting(dev.memfas.State.Entry::key)
                .containsExactly("memfas.last_seen");
        assertThat(store().clearState("a", null)).isEqualTo(1);
        assertThat(store().listState("b", false)).hasSize(1);
    }

    @Test
    default void deleteAll_deletesTheVersionsToo() {
        Memory a = memory("a", "first");
        Memory b = memory("b", "kept");
        store().upsertAll(List.of(a, b));
        store().upsertAll(List.of(a.toBuilder().text("second").build(), b.toBuilder().text("kept, changed").build()));

        store().deleteAll(Memory.DEFAULT_NAMESPACE, List.of("a"));
        store().upsertAll(List.of(memory("a", "a new memory with an old id")));

        assertThat(store().versions(Memory.DEFAULT_NAMESPACE, "a")).isEmpty();
        assertThat(store().versions(Memory.DEFAULT_NAMESPACE, "b")).hasSize(1);
    }
}
