package dev.memfas.core.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.Memory;
import dev.memfas.core.store.InMemoryMemoryStore;
import dev.memfas.spi.Embeddings;
import dev.memfas.spi.VectorSpace;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NamespaceIndexesTest {
    private static final int DIMENSION = 8;
    private static final VectorSpace SPACE = new VectorSpace("test-model", DIMENSION);

    /** A store of {@code namespaces} namespaces of {@code each} memories, memory i along axis i % 8. */
    private static InMemoryMemoryStore store(int namespaces, int each) {
        InMemoryMemoryStore store = new InMemoryMemoryStore();
        for (int n = 0; n < namespaces; n++) {
            List<Memory> memories = new ArrayList<>();
            List<float[]> vectors = new ArrayList<>();
            for (int i = 0; i < each; i++) {
                memories.add(Memory.builder("memory " + i + " of ns" + n).namespace("ns" + n).id("m" + i)
                        .createdAt(Instant.parse("2026-11-01T00:00:00Z")).build());
                float[] v = new float[DIMENSION];
                v[i % DIMENSION] = 1;
                vectors.add(v);
            }
            store.upsertAll(memories, Embeddings.of(SPACE, vectors));
        }
        return store;
    }

    @Test
    void nothingIsLoadedUntilANamespaceIsUsed() {
        NamespaceIndexes indexes = new NamespaceIndexes(store(50, 10), DIMENSION, 1L << 30);
        indexes.checkSpace(SPACE);

        assertThat(indexes.loadedCount()).isZero();
        assertThat(indexes.indexFor("ns7").size()).isEqualTo(10);
        assertThat(indexes.loadedCount()).isEqualTo(1);
        assertThat(indexes.loaded("ns8")).isNull();
    }

    @Test
    void theLoadedIndexesStayWithinTheLimit_andADroppedNamespaceLoadsAgainWhole() {
        // Each namespace's index of 10 vectors weighs the same; the limit holds five of them.
        long each = new NamespaceIndexes(store(1, 10), DIMENSION, 1L << 30).indexFor("ns0").bytes();
        NamespaceIndexes indexes = new NamespaceIndexes(store(40, 10), DIMENSION, 5 * each);

        for (int n = 0; n < 40; n++) {
            assertThat(indexes.indexFor("ns" + n).size()).isEqualTo(10);
            assertThat(indexes.bytes()).isLessThanOrEqualTo(5 * each);
        }
        assertThat(indexes.loadedCount()).isBetween(1L, 5L);
        long loaded = 0;
        for (int n = 0; n < 40; n++) {
            loaded += indexes.loaded("ns" + n) == null ? 0 : 1;
        }
        assertThat(loaded).isEqualTo(indexes.loadedCount());

        VectorIndex again = indexes.indexFor("ns0");
        assertThat(again.size()).isEqualTo(10);
        float[] query = new float[DIMENSION];
        query[3] = 1;
        assertThat(again.search(query, 1, 1).ids()).containsExactly("m3");
    }

    @Test
    void anIndexLargerThanTheLimit_isKeptAlone() {
        long each = new NamespaceIndexes(store(1, 10), DIMENSION, 1L << 30).indexFor("ns0").bytes();
        InMemoryMemoryStore store = store(3, 10);
        NamespaceIndexes indexes = new NamespaceIndexes(store, DIMENSION, each / 2);

        VectorIndex first = indexes.indexFor("ns0");
        assertThat(indexes.loaded("ns0")).isSameAs(first);
        indexes.indexFor("ns1");
        assertThat(indexes.loadedCount()).isEqualTo(1);
        assertThat(indexes.bytes()).isEqualTo(each / 2);
    }

    @Test
    void anIndexThatGrows_isWeighedAgain() {
        InMemoryMemoryStore store = store(2, 10);
        long each = new NamespaceIndexes(store(1, 10), DIMENSION, 1L << 30).indexFor("ns0").bytes();
        NamespaceIndexes indexes = new NamespaceIndexes(store, DIMENSION, 1L << 30);
        VectorIndex index = indexes.indexFor("ns0");
        assertThat(indexes.bytes()).isEqualTo(each);

        List<String> ids = new ArrayList<>();
        List<float[]> vectors = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            ids.add("more" + i);
            vectors.add(new float[] {1, 0, 0, 0, 0, 0, 0, 0});
        }
        index.putAll(ids, vectors);
        indexes.resized("ns0");

        assertThat(indexes.bytes()).isEqualTo(index.bytes()).isGreaterThan(5 * each);
    }

    @Test
    void aLimitBelowOneByte_isRefused() {
        assertThatThrownBy(() -> new NamespaceIndexes(store(1, 1), DIMENSION, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("index memory limit must be positive: 0");
    }
}
