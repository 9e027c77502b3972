package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
    void panamaKernel_equalsTheScalarSum_forEveryCountAndDimension() throws Exception {
        VectorKernels.Int8Kernel kernel = VectorKernels.loadPanama();
        int tile = VectorKernels.TILE;
        Random random = new Random(7);
        for (int dimension : new int[] {1, 7, 384}) {
            for (int count : new int[] {1, 15, 63, 64, 65, 127, 511, 512}) {
                // Every byte value, -128 included (quantize never writes it; the kernel must not care).
                byte[] codes = new byte[VectorIndex.BLOCK * dimension];
                random.nextBytes(codes);
                float[] query = new float[dimension];
                for (int d = 0; d < dimension; d++) {
                    query[d] = (float) random.nextGaussian();
                }
                float[] acc = new float[VectorIndex.BLOCK];
                Arrays.fill(acc, 12345f);

                kernel.score(codes, query, acc, count);

                int covered = (count + tile - 1) / tile * tile;
                for (int j = 0; j < covered; j++) {
                    double expected = 0;
                    double magnitude = 0;
                    for (int d = 0; d < dimension; d++) {
                        byte code = codes[(j / tile) * tile * dimension + d * tile + j % tile];
                        expected += query[d] * code;
                        magnitude += Math.abs(query[d] * code);
                    }
                    assertThat((double) acc[j]).as("dimension %d, count %d, slot %d", dimension, count, j)
                            .isCloseTo(expected, Offset.offset(1e-5 * magnitude + 1e-6));
                }
                assertThat(IntStream.range(covered, acc.length).mapToDouble(j -> acc[j]))
                        .as("slots past the last tile are left alone").allMatch(v -> v == 12345f);
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
    // 700 are removed: 200 left are few enough to score every one exactly; 8,300 take the int8 scan, then re-scoring.
    @ValueSource(ints = {900, 9000})
    void int8Index_findsTheFloatIndexTopK_withTheSameScores(int count) throws Exception {
        int dimension = 384;
        Random random = new Random(11);
        VectorIndex floats = new VectorIndex(dimension, null);
        VectorIndex codes = new VectorIndex(dimension, VectorKernels.loadPanama());
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
        floats.putAll(ids, vectors);
        codes.putAll(ids, vectors);
        List<String> removed = ids.subList(0, 700);
        floats.removeAll(removed);
        codes.removeAll(removed);

        for (int q = 0; q < 20; q++) {
            float[] query = gaussian(random, dimension, 0.7f);
            float[] centre = centres[random.nextInt(centres.length)];
            for (int d = 0; d < dimension; d++) {
                query[d] += centre[d];
            }
            query = Vectors.normalizedCopy(query, dimension);
            for (int threads : new int[] {1, 2}) {
                VectorIndex.Hits expected = floats.search(query, 100, threads);
                VectorIndex.Hits actual = codes.search(query, 100, threads);
                // The same hits with the same cosines; two cosines within rounding of each other may swap places.
                assertThat(actual.ids()).as("query %d, %d threads", q, threads)
                        .containsExactlyInAnyOrder(expected.ids());
                List<String> expectedIds = Arrays.asList(expected.ids());
                for (int i = 0; i < actual.size(); i++) {
                    float expectedScore = expected.scores()[expectedIds.indexOf(actual.ids()[i])];
                    assertThat(actual.scores()[i]).isCloseTo(expectedScore, Offset.offset(1e-5f));
                    if (i > 0) {
                        assertThat(actual.scores()[i]).isLessThanOrEqualTo(actual.scores()[i - 1]);
                    }
                }
            }
        }
    }

    @Test
    void quantize_keepsEveryComponentWithinHalfAStep() {
        Random random = new Random(3);
        float[] v = gaussian(random, 384, 1f);
        byte[] codes = new byte[384];

        float step = VectorIndex.quantize(v, 0.5f, codes);

        for (int d = 0; d < v.length; d++) {
            assertThat(codes[d] * step).isCloseTo(v[d] * 0.5f, Offset.offset(step / 2 + 1e-6f));
        }
        assertThat(VectorIndex.quantize(new float[4], 1f, new byte[4])).isZero();
    }

    private static float[] gaussian(Random random, int dimension, float scale) {
        float[] v = new float[dimension];
        for (int d = 0; d < dimension; d++) {
            v[d] = (float) random.nextGaussian() * scale;
        }
        return v;
    }
}
