package dev.memfas.core.vector;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Vector API scan against the scalar one. The build puts the kernel on the test class path and adds the incubator
 * module on every JDK, so these comparisons run on 17 too (where production code would not choose the kernel).
 */
final class VectorKernelsTest {

    @Test
    void choice_followsTheJavaVersion() {
        // Surefire adds jdk.incubator.vector: 21+ chooses the kernel, 17 keeps the float scan.
        assertThat(VectorKernels.INT8 != null).isEqualTo(Runtime.version().feature() >= 21);
    }

    @Test
    void panamaKernel_equalsTheScalarSum_forEveryRangeAndDimension() throws Exception {
        VectorKernels.Int8Kernel kernel = VectorKernels.loadPanama();
        int tile = VectorKernels.TILE;
        int slots = 8 * tile;
        Random random = new Random(7);
        for (int dimension : new int[] {1, 7, 384}) {
            for (int[] range : new int[][] {{0, 1}, {0, 15}, {0, 63}, {0, 64}, {0, 65}, {0, 127}, {0, slots - 1},
                    {0, slots}, {tile, tile + 1}, {2 * tile, 5 * tile - 3}, {7 * tile, slots}}) {
                int from = range[0];
                int to = range[1];
                // Every byte value, -128 included (quantize never writes it; the kernel must not care).
                byte[] codes = new byte[slots * dimension];
                random.nextBytes(codes);
                float[] query = new float[dimension];
                for (int d = 0; d < dimension; d++) {
                    query[d] = (float) random.nextGaussian();
                }
                float[] acc = new float[slots];
                Arrays.fill(acc, 12345f);

                kernel.score(codes, query, acc, from, to);

                int end = (to + tile - 1) / tile * tile;
                for (int j = from; j < end; j++) {
                    double expected = 0;
                    double magnitude = 0;
                    for (int d = 0; d < dimension; d++) {
                        byte code = codes[(j / tile) * tile * dimension + d * tile + j % tile];
                        expected += query[d] * code;
                        magnitude += Math.abs(query[d] * code);
                    }
                    assertThat((double) acc[j]).as("dimension %d, range [%d, %d), slot %d", dimension, from, to, j)
                            .isCloseTo(expected, Offset.offset(1e-5 * magnitude + 1e-6));
                }
                assertThat(IntStream.range(0, acc.length).filter(j -> j < from || j >= end).mapToDouble(j -> acc[j]))
                        .as("slots outside the range's tiles are left alone").allMatch(v -> v == 12345f);
            }
        }
    }

    @Test
    void panamaDot_equalsTheScalarDot_forEveryLengthAndOffset() throws Exception {
        VectorKernels.Int8Kernel kernel = VectorKernels.loadPanama();
        Random random = new Random(5);
        for (int length : new int[] {0, 1, 7, 16, 31, 32, 33, 384}) {
            float[] x = gaussian(random, 3 * length + 5, 1f);
            float[] y = gaussian(random, length + 3, 1f);
            for (int row = 0; row < 3; row++) {
                int xOffset = row * length + row;
                int yOffset = row;
                double expected = 0;
                for (int i = 0; i < length; i++) {
                    expected += x[xOffset + i] * y[yOffset + i];
                }
                assertThat((double) kernel.dot(x, xOffset, y, yOffset, length))
                        .as("length %d, row %d", length, row).isCloseTo(expected, Offset.offset(1e-4));
                assertThat((double) Vectors.scalarDot(x, xOffset, y, yOffset, length))
                        .as("scalar, length %d, row %d", length, row).isCloseTo(expected, Offset.offset(1e-4));
            }
        }
    }

    @ParameterizedTest(name = "{0} vectors")
    // 700 are removed: 200 left are few enough to re-score every one; 8,300 take the code scans, then re-scoring.
    @ValueSource(ints = {900, 9000})
    void everyScan_findsTheExactTopK_withExactScores(int count) throws Exception {
        int dimension = 384;
        Random random = new Random(11);
        VectorIndex shorts = new VectorIndex(dimension, null, 0);
        VectorIndex bytes = new VectorIndex(dimension, VectorKernels.loadPanama(), 0);
        // Exact float columns up to 2,048 vectors, then the codes of this JVM's kind.
        VectorIndex columns = new VectorIndex(dimension);
        float[][] centres = new float[50][];
        for (int c = 0; c < centres.length; c++) {
            centres[c] = gaussian(random, dimension, 1f);
        }
        List<String> ids = new ArrayList<>();
        List<float[]> vectors = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            float[] v = gaussian(random, dimension, 0.7f);
            float[] centre = centres[random.nextInt(centres.length)];
            for (int d = 0; d < dimension; d++) {
                v[d] += centre[d];
            }
            ids.add("v" + i);
            vectors.add(v);
        }
        List<VectorIndex> indexes = List.of(shorts, bytes, columns);
        List<String> removed = ids.subList(0, 700);
        for (VectorIndex index : indexes) {
            index.putAll(ids, vectors);
            index.removeAll(removed);
        }
        Map<String, float[]> live = new HashMap<>();
        for (int i = 700; i < count; i++) {
            live.put(ids.get(i), Vectors.normalizedCopy(vectors.get(i), dimension));
        }

        for (int q = 0; q < 20; q++) {
            float[] query = gaussian(random, dimension, 0.7f);
            float[] centre = centres[random.nextInt(centres.length)];
            for (int d = 0; d < dimension; d++) {
                query[d] += centre[d];
            }
            query = Vectors.normalizedCopy(query, dimension);
            Map<String, Double> exact = new HashMap<>();
            for (Map.Entry<String, float[]> e : live.entrySet()) {
                double dot = 0;
                for (int d = 0; d < dimension; d++) {
                    dot += (double) e.getValue()[d] * query[d];
                }
                exact.put(e.getKey(), dot);
            }
            double hundredth = exact.values().stream().sorted(Comparator.reverseOrder()).skip(99).findFirst()
                    .orElseThrow();
            for (VectorIndex index : indexes) {
                String kind = index == shorts ? "16-bit" : index == bytes ? "int8" : "exact columns first";
                for (int threads : new int[] {1, 2}) {
                    Hits hits = index.search(query, 100, threads);
                    // The true best 100 (two cosines within rounding of each other at the cut may swap), exact scores.
                    assertThat(hits.size()).isEqualTo(100);
                    assertThat(new HashSet<>(Arrays.asList(hits.ids()))).hasSize(100);
                    for (int i = 0; i < hits.size(); i++) {
                        double truth = exact.get(hits.ids()[i]);
                        assertThat(truth).as("%s, query %d, %d threads, hit %d", kind, q, threads, i)
                                .isGreaterThanOrEqualTo(hundredth - 1e-5);
                        assertThat((double) hits.scores()[i]).isCloseTo(truth, Offset.offset(1e-5));
                        if (i > 0) {
                            assertThat(hits.scores()[i]).isLessThanOrEqualTo(hits.scores()[i - 1]);
                        }
                    }
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} dimensions")
    @ValueSource(ints = {1, 2, 3, 384, 768, 1536, 4096, 20000})
    void shortScale_keepsTheLargestSumOfTwoUnitVectorsWithinAShort(int dimension) {
        int scale = ShortCodes.scale(dimension);
        // The bound the scale is chosen by, and that it is the largest such scale.
        assertThat(Math.pow(scale + Math.sqrt(dimension) / 2, 2)).isLessThanOrEqualTo(Short.MAX_VALUE);
        assertThat(Math.pow(scale + 1 + Math.sqrt(dimension) / 2, 2)).isGreaterThan(Short.MAX_VALUE);
        // The worst unit vectors for it: one component (largest code), all components equal, and components that all
        // round up by almost half a step.
        float[] single = new float[dimension];
        single[0] = 1f;
        float[] flat = new float[dimension];
        Arrays.fill(flat, (float) (1 / Math.sqrt(dimension)));
        float[] roundingUp = new float[dimension];
        float step = 1f / scale;
        for (int d = 0; d < dimension; d++) {
            roundingUp[d] = step * (d % 3 + 0.499f);
        }
        roundingUp = Vectors.normalizedCopy(roundingUp, dimension);
        for (float[] v : List.of(single, flat, roundingUp)) {
            long sum = 0;
            for (int d = 0; d < dimension; d++) {
                long code = Math.round(v[d] * scale);
                sum += code * code;
            }
            assertThat(sum).isLessThanOrEqualTo(Short.MAX_VALUE);
        }
    }

    @Test
    void shortIndex_scoresExactly_whenTheDimensionIsTooLargeForCodes() {
        int dimension = 100_000;
        assertThat(ShortCodes.scale(dimension)).isLessThan(ShortCodes.MIN_SCALE);
        VectorIndex index = new VectorIndex(dimension, null, 0);
        Random random = new Random(2);
        List<String> ids = new ArrayList<>();
        List<float[]> vectors = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            ids.add("v" + i);
            vectors.add(gaussian(random, dimension, 1f));
        }
        index.putAll(ids, vectors);
        float[] query = Vectors.normalizedCopy(vectors.get(17), dimension);

        Hits hits = index.search(query, 1, 1);

        assertThat(hits.ids()).containsExactly("v17");
        assertThat(hits.scores()[0]).isCloseTo(1f, Offset.offset(1e-4f));
    }

    @Test
    void quantize_keepsEveryComponentWithinHalfAStep() {
        Random random = new Random(3);
        float[] v = gaussian(random, 384, 1f);
        byte[] codes = new byte[384];

        float step = Int8Tiles.quantize(v, 0.5f, codes);

        for (int d = 0; d < v.length; d++) {
            assertThat(codes[d] * step).isCloseTo(v[d] * 0.5f, Offset.offset(step / 2 + 1e-6f));
        }
        assertThat(Int8Tiles.quantize(new float[4], 1f, new byte[4])).isZero();
    }

    private static float[] gaussian(Random random, int dimension, float scale) {
        float[] v = new float[dimension];
        for (int d = 0; d < dimension; d++) {
            v[d] = (float) random.nextGaussian() * scale;
        }
        return v;
    }
}
