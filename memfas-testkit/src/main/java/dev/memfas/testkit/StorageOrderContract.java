package dev.memfas.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.Memory;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.StoredMemory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The part of the {@link MemoryStoreContract} on storage order: {@link MemoryStore#neighborhood} returns the memories
 * stored around one, across batches, deletions and replacements, and never across namespaces. JUnit runs these
 * default methods on every store test, as the contract implements this interface.
 */
interface StorageOrderContract {
    /** The store under test. */
    MemoryStore store();

    private static Memory memory(String id, String text) {
        return MemoryStoreContract.memory(id, text);
    }

    private List<String> neighborIds(String namespace, String id, int radius) {
        return store().neighborhood(namespace, id, radius).stream().map(s -> s.memory().id()).toList();
    }

    @Test
    default void neighborhood_isTheStorageOrderAroundTheMemory_acrossBatches() {
        store().upsertAll(List.of(memory("t1", "one"), memory("t2", "two"), memory("t3", "three")));
        store().upsertAll(List.of(memory("t4", "four"), memory("t5", "five")));

        assertThat(neighborIds("default", "t3", 1)).containsExactly("t2", "t3", "t4");
        assertThat(neighborIds("default", "t3", 2)).containsExactly("t1", "t2", "t3", "t4", "t5");
        assertThat(neighborIds("default", "t1", 2)).containsExactly("t1", "t2", "t3");
        assertThat(neighborIds("default", "t5", 3)).containsExactly("t2", "t3", "t4", "t5");
        assertThat(store().neighborhood("default", "t3", 1).get(1).memory().text()).isEqualTo("three");
    }

    @Test
    default void neighborhood_replacedMemoryKeepsItsPlace_deletedOnesLeaveNoGap() {
        store().upsertAll(
                List.of(memory("t1", "one"), memory("t2", "two"), memory("t3", "three"), memory("t4", "four")));
        store().recordAccess(Memory.DEFAULT_NAMESPACE, List.of("t3"), MemoryStoreContract.T0);

        store().upsertAll(List.of(memory("t2", "two, edited")));
        store().delete(Memory.DEFAULT_NAMESPACE, "t3");

        List<StoredMemory> window = store().neighborhood("default", "t2", 1);
        assertThat(window).extracting(s -> s.memory().id()).containsExactly("t1", "t2", "t4");
        assertThat(window.get(1).memory().text()).isEqualTo("two, edited");
        store().upsertAll(List.of(memory("t3", "three again")));
        assertThat(neighborIds("default", "t4", 1)).containsExactly("t2", "t4", "t3");
    }

    @Test
    default void neighborhood_manyDeletions_keepTheOrderOfTheRest() {
        List<Memory> batch = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            batch.add(memory("m" + i, "memory " + i));
        }
        store().upsertAll(batch);
        List<String> doomed = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            if (i % 3 != 0) {
                doomed.add("m" + i);
            }
        }
        store().deleteAll(Memory.DEFAULT_NAMESPACE, doomed);
        store().upsertAll(List.of(memory("late", "stored last")));

        assertThat(neighborIds("default", "m150", 2)).containsExactly("m144", "m147", "m150", "m153", "m156");
        assertThat(neighborIds("default", "late", 1)).containsExactly("m297", "late");
    }

    @Test
    default void neighborhoods_areEachMemorysNeighborhood_readAtOnce() {
        List<Memory> batch = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            batch.add(memory("m" + i, "memory " + i));
        }
        store().upsertAll(batch);
        store().upsertAll(List.of(MemoryStoreContract.memory("other", "m5", "another namespace")));
        store().delete(Memory.DEFAULT_NAMESPACE, "m6");

        var windows = store().neighborhoods("default", List.of("m9", "m0", "nope", "m5", "m9"), 2);

        assertThat(windows.keySet()).containsExactly("m9", "m0", "m5");
        for (String id : windows.keySet()) {
            assertThat(windows.get(id)).extracting(s -> s.memory().id())
                    .containsExactlyElementsOf(neighborIds("default", id, 2));
        }
        assertThat(windows.get("m5")).extracting(s -> s.memory().id()).containsExactly("m3", "m4", "m5", "m7", "m8");
        assertThat(store().neighborhoods("default", List.of(), 1)).isEmpty();
        assertThatThrownBy(() -> store().neighborhoods("default", List.of("m1"), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("neighbor radius must be in [1, 100]: 0");
    }

    @Test
    default void neighborhood_ofAnUnknownMemory_isEmpty_andBadRadiusIsRefused() {
        store().upsertAll(List.of(memory("t1", "one")));

        assertThat(store().neighborhood("default", "nope", 1)).isEmpty();
        assertThat(store().neighborhood("elsewhere", "t1", 1)).isEmpty();
        assertThat(neighborIds("default", "t1", MemoryStore.MAX_NEIGHBOR_RADIUS)).containsExactly("t1");
        assertThatThrownBy(() -> store().neighborhood("default", "t1", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("neighbor radius must be in [1, 100]: 0");
        assertThatThrownBy(() -> store().neighborhood("default", "t1", 101))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("neighbor radius must be in [1, 100]: 101");
    }
}
