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
