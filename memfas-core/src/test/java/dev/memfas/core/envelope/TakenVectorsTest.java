package dev.memfas.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.core.vector.Vectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The near-duplicate check, which skips most of each dot product, against every dot product in full. */
final class TakenVectorsTest {

    @ParameterizedTest(name = "{0} dimensions")
    @ValueSource(ints = {1, 3, 63, 64, 65, 384})
    void anyAtLeast_decidesAsTheFullDotProductsDo(int dimension) {
        Random random = new Random(dimension);
        int rows = 300;
        float[] matrix = new float[rows * dimension];
        for (int r = 0; r < rows; r++) {
            float[] v = new float[dimension];
            if (r >= 10 && random.nextInt(3) > 0) {
                // A copy of an earlier row, moved a little or a lot: cosines from about 0.5 to exactly 1.
                int of = random.nextInt(r);
                float noise = random.nextInt(5) == 0 ? 0f : (float) Math.pow(10, -2.5 + 2 * random.nextDouble());
                for (int d = 0; d < dimension; d++) {
                    v[d] = matrix[of * dimension + d] + noise * (float) random.nextGaussian();
                }
            } else {
                for (int d = 0; d < dimension; d++) {
                    v[d] = (float) random.nextGaussian();
                }
            }
            System.arraycopy(Vectors.normalizedCopy(v, dimension), 0, matrix, r * dimension, dimension);
        }
        int duplicates = 0;
        for (double threshold : new double[] {0.5, 0.9, 0.95, 0.99, 1.0}) {
            TakenVectors taken = new TakenVectors(matrix, dimension);
            List<Integer> takenRows = new ArrayList<>();
            for (int r = 0; r < rows; r++) {
                boolean expected = false;
                for (int t : takenRows) {
                    expected |= Vectors.dot(matrix, r * dimension, matrix, t * dimension, dimension) >= threshold;
                }
                assertThat(taken.anyAtLeast(r, threshold)).as("row %d, threshold %s", r, threshold)
                        .isEqualTo(expected);
                duplicates += expected ? 1 : 0;
                if (r % 2 == 0) {
                    taken.add(r);
                    takenRows.add(r);
                }
            }
            assertThat(taken.anyAtLeast(-1, threshold)).as("a candidate without a vector").isFalse();
        }
        assertThat(duplicates).as("the data has near-duplicates to find").isGreaterThan(50);
    }
}
