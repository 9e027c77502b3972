package dev.memfas.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.spi.Embeddings;
import dev.memfas.spi.LexicalHit;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.TriggerStore;
import dev.memfas.spi.StoredMemory;
import dev.memfas.Trigger;
import dev.memfas.spi.VectorSpace;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The part of the {@link MemoryStoreContract} on namespaces as walls, randomized: writes, deletes, access and triggers
 * in three namespaces that share ids and words, in a random order, checked every 50 steps against a model of what each
 * namespace holds. JUnit runs this default method on every store test, as the contract implements this interface.
 */
interface NamespaceWallsContract {
    /** The store under test. */
    MemoryStore store();

    @Test
    default void randomInterleavedOperations_onSeveralNamespaces_neverLeak() {
        String[] namespaces = {"alpha", "beta", "gamma"};
        String[] words = {"kafka", "grafana", "pasta", "deploy", "river", "secret"};
        Random random = new Random(11);
        VectorSpace space = new VectorSpace("rand-4", 4);
        Map<String, Map<String, String>> model = new HashMap<>();
        for (String ns : namespaces) {
            model.put(ns, new HashMap<>());
        }
        MemoryStore store = store();
        for (int step = 0; step < 600; step++) {
            String ns = namespaces[random.nextInt(namespaces.length)];
            String id = "m" + random.nextInt(30);
            switch (random.nextInt(5)) {
                case 0, 1 -> {
                    String text = ns + " " + words[random.nextInt(words.length)] + " " + step;
                    store.upsertAll(List.of(Memory.builder(text).id(id).namespace(ns)
                                    .createdAt(MemoryHistoryContract.T0).build()),
                            Embeddings.of(space, List.of(new float[] {random.nextFloat(), 1, 2, 3})));
                    model.get(ns).put(id, text);
                }
                case 2 -> {
                    store.delete(ns, id);
                    model.get(ns).remove(id);
                }
                case 3 -> store.recordAccess(ns, List.of(id), MemoryHistoryContract.T0);
                default -> {
                    if (store instanceof TriggerStore triggers) {
                        triggers.putTrigger(Trigger.of(words[random.nextInt(words.length)], ns).inNamespace(ns));
                    }
                }
            }
            if (step % 50 == 0 || step == 599) {
                for (String each : namespaces) {
                    assertNoLeak(store, each, model.get(each), words);
                }
            }
        }
    }

    private static void assertNoLeak(MemoryStore store, String ns, Map<String, String> expected, String[] words) {
        assertThat(store.count(ns)).isEqualTo(expected.size());
        for (StoredMemory s : store.getAll(ns, expected.keySet())) {
            assertThat(s.memory().namespace()).isEqualTo(ns);
            assertThat(s.memory().text()).isEqualTo(expected.get(s.memory().id())).startsWith(ns + " ");
        }
        for (String w : words) {
            for (LexicalHit hit : store.searchLexical(ns, w + " " + ns, 100)) {
                assertThat(expected).containsKey(hit.memoryId());
            }
        }
        Set<String> vectorIds = new HashSet<>();
        store.forEachVector(ns, (id, v) -> vectorIds.add(id));
        assertThat(vectorIds).isEqualTo(expected.keySet());
        if (store instanceof TriggerStore triggers) {
            triggers.triggers(ns).forEach(t -> assertThat(t.hint()).isEqualTo(ns));
        }
        List<String> seen = new ArrayList<>();
        store.forEach(ns, MemoryFilter.all(), m -> seen.add(m.text()));
        assertThat(seen).hasSize(expected.size()).allSatisfy(t -> assertThat(t).startsWith(ns + " "));
    }
}
