package dev.memfas.core.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

final class VectorIndexTest {

    // ---------------------------------------------------------------- search agrees with brute force

    @ParameterizedTest
    // Block capacities (64, 128, ...), the last size with exact columns and the first with codes, parts within a block,
    // a block, and parts across blocks.
    @ValueSource(ints = {1, 2, 7, 63, 64, 65, 84, 85, 129, 1500, 2048, 2049, 2 * 4096 + 1, 3 * 4096 + 700, 8191, 8192,
            8193, 2 * 8192 + 4097})
    void search_awkwardSizes_matchesBruteForce(int n) {
        Random random = new Random(n);
        int dim = 37;
        VectorIndex index = new VectorIndex(dim);
        Map<String, float[]> normalized = new HashMap<>();
        List<String> ids = new ArrayList<>();
        List<float[]> vectors = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            float[] v = randomVector(random, dim);
            ids.add("v" + i);
            vectors.add(v);
            normalized.put("v" + i, Vectors.normalizedCopy(v, dim));
        }
        index.putAll(ids, vectors);
        float[] q = Vectors.normalizedCopy(randomVector(random, dim), dim);

        List<String> expected = bruteForce(normalized, q, 10);
        // One thread, and split across threads (the larger sizes give several parts).
        for (int threads : new int[] {1, 2, 3}) {
            Hits hits = index.search(q, 10, threads);
            assertThat(Arrays.asList(hits.ids())).as("%d threads", threads).containsExactlyElementsOf(expected);
            for (int i = 0; i < hits.size(); i++) {
                assertThat(hits.scores()[i]).isCloseTo(dot(normalized.get(hits.ids()[i]), q),
                        org.assertj.core.data.Offset.offset(1e-5f));
            }
        }
    }

    @ParameterizedTest(name = "ids from {0}, codes from the start: {1}")
    // Exact columns throughout, codes from the start, and columns until the index grows past 2,048 slots.
    @CsvSource({"1200, false", "1200, true", "4000, false"})
    void removeAndReplace_keepTheIndexConsistentWithBruteForce(int distinctIds, boolean codesFromTheStart) {
        Random random = new Random(42);
        int dim = 16;
        VectorIndex index = new VectorIndex(dim, VectorKernels.INT8, codesFromTheStart ? 0 : VectorIndex.EXACT_SLOTS);
        Map<String, float[]> truth = new HashMap<>();
        int peak = 0;
        for (int step = 0; step < 3 * distinctIds; step++) {
            String id = "v" + random.nextInt(distinctIds);
            if (random.nextInt(4) == 0) {
                index.removeAll(List.of(id));
                truth.remove(id);
            } else {
                float[] v = randomVector(random, dim);
                index.put(id, v);
                truth.put(id, Vectors.normalizedCopy(v, dim));
            }
            peak = Math.max(peak, truth.size());
        }
        assertThat(peak > VectorIndex.EXACT_SLOTS).isEqualTo(distinctIds > VectorIndex.EXACT_SLOTS);
        assertThat(index.size()).isEqualTo(truth.size());
        float[] q = Vectors.normalizedCopy(randomVector(random, dim), dim);
        assertThat(Arrays.asList(index.search(q, 25, 2).ids())).containsExactlyElementsOf(bruteForce(truth, q, 25));

        List<String> all = new ArrayList<>(truth.keySet());
        float[] gathered = new float[all.size() * dim];
        boolean[] present = index.gather(all, gathered);
        for (int i = 0; i < all.size(); i++) {
            assertThat(present[i]).isTrue();
            assertThat(Arrays.copyOfRange(gathered, i * dim, (i + 1) * dim)).containsExactly(truth.get(all.get(i)));
        }
    }

    @ParameterizedTest(name = "int8 kernel: {0}, {1} slots")
    @CsvSource({"false, 40000", "true, 40000", "false, 8193", "true, 8193"})
    void search_inManyPartsWithWorkAlongside_matchesBruteForce(boolean int8, int size) {
        // With work alongside, the slots are scanned in parts that begin on a block, on two threads: 40,000 slots are
        // five parts of 16-bit codes (the last block partly filled) or eight of int8 tiles; 8,193 are a full block and
        // one of a single slot. Parts that start late skip what scores below the best found so far, which must not
        // lose any of the true best.
        Random random = new Random(8);
        int dim = 24;
        VectorIndex index = new VectorIndex(dim, int8 ? VectorKernels.INT8 : null, 0);
        Map<String, float[]> normalized = new HashMap<>();
        List<String> ids = new ArrayList<>();
        List<float[]> vectors = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            float[] v = randomVector(random, dim);
            ids.add("v" + i);
            vectors.add(v);
            normalized.put("v" + i, Vectors.normalizedCopy(v, dim));
        }
        index.putAll(ids, vectors);
        for (int q = 0; q < 10; q++) {
            float[] query = Vectors.normalizedCopy(randomVector(random, dim), dim);
            int[] ran = new int[1];
            Hits hits = index.search(query, 50, 2, () -> ran[0]++);
            assertThat(ran[0]).isEqualTo(1);
            assertThat(Arrays.asList(hits.ids())).as("query %d", q)
                    .containsExactlyElementsOf(bruteForce(normalized, query, 50));
        }
    }

    @Test
    void gather_missingId_isMarkedAbsentWithAZeroRow() {
        VectorIndex index = new VectorIndex(2);
        index.put("a", new float[] {3, 4});
        float[] out = {9, 9, 9, 9};

        boolean[] present = index.gather(List.of("a", "b"), out);

        assertThat(present).containsExactly(true, false);
        assertThat(out).containsExactly(0.6f, 0.8f, 0f, 0f);
    }

    @Test
    void search_emptyIndex_returnsNothing() {
        assertThat(new VectorIndex(4).search(new float[4], 5, 2).size()).isZero();
    }

    @Test
    void put_badVector_throwsNamingTheProblem() {
        VectorIndex index = new VectorIndex(3);
        assertThatThrownBy(() -> index.put("a", new float[] {1, 2}))
                .hasMessageContaining("vector dimensions differ: 2 != 3");
        assertThatThrownBy(() -> index.put("a", new float[] {1, Float.NaN, 2}))
                .hasMessageContaining("non-finite component at index 1: NaN");
        assertThat(index.size()).isZero();
    }

    private static List<String> bruteForce(Map<String, float[]> vectors, float[] q, int k) {
        return vectors.entrySet().stream()
                .sorted(Comparator.comparingDouble((Map.Entry<String, float[]> e) -> -dot(e.getValue(), q))
                        .thenComparing(Map.Entry::getKey))
                .limit(k).map(Map.Entry::getKey).toList();
    }

    private static float dot(float[] a, float[] b) {
        float s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    private static float[] randomVector(Random random, int dim) {
        float[] v = new float[dim];
        for (int d = 0; d < dim; d++) {
            v[d] = (float) random.nextGaussian();
        }
        return v;
    }
}
