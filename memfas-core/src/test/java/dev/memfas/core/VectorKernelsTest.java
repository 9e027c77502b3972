package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

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
        Random random = new Random(7);
        for (int dimension : new int[] {1, 7, 384}) {
            for (int count : new int[] {1, 15, 63, 64, 65, 127, 511, 512}) {
                byte[][] codes = new byte[dimension][VectorIndex.BLOCK];
                for (byte[] column : codes) {
                    random.nextBytes(column);
                    // Quantize never writes -128; the kernel must still be exact on the full range.
                }
                byte[] query = new byte[dimension];
                random.nextBytes(query);
                int[] acc = new int[VectorIndex.BLOCK];
                Arrays.fill(acc, 12345);

                kernel.score(codes, query, acc, count);

                for (int j = 0; j < count; j++) {
                    int expected = 0;
                    for (int d = 0; d < dimension; d++) {
                        expected += query[d] * codes[d][j];
                    }
                    assertThat(acc[j]).as("dimension %d, count %d, slot %d", dimension, count, j).isEqualTo(expected);
                }
                assertThat(Arrays.stream(acc, count, acc.length)).as("slots past the count are left alone")
                        .allMatch(v -> v == 12345);
            }
        }
    }

    @Test
    void int8Index_findsExactlyTheFloatIndexTopK_withExactScores() throws Exception {
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
        for (int i = 0; i < 9000; i++) {
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
                assertThat(actual.ids()).as("query %d, %d threads", q, threads).containsExactly(expected.ids());
                for (int i = 0; i < expected.size(); i++) {
                    assertThat(actual.scores()[i]).isCloseTo(expected.scores()[i], Offset.offset(1e-5f));
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
