package dev.memfas.core.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class TopScoresTest {

    @ParameterizedTest
    @CsvSource({"1, 1", "1, 1000", "7, 5", "7, 1000", "64, 63", "64, 64", "64, 129", "100, 1000", "264, 1000",
            "264, 100000", "5000, 20000"})
    void drainDescending_keepsTheBestK_bestFirst_lowerSlotFirstOnTies(int k, int n) {
        Random random = new Random(31L * k + n);
        float[] scores = new float[n];
        TopScores top = new TopScores(k);
        for (int i = 0; i < n; i++) {
            // Few distinct values, negative ones and both zeros, so that ties decide.
            scores[i] = (random.nextInt(41) - 20) / 8f;
            if (scores[i] == 0 && random.nextBoolean()) {
                scores[i] = -0f;
            }
            top.offer(i, scores[i]);
        }
        int[] expected = expectedBest(scores, k);
        int[] slots = new int[top.size()];
        float[] best = new float[top.size()];

        assertThat(top.drainDescending(slots, best)).isEqualTo(expected.length);

        assertThat(slots).containsExactly(expected);
        for (int i = 0; i < slots.length; i++) {
            assertThat(best[i]).isEqualTo(scores[slots[i]]);
        }
        assertThat(top.size()).isZero();
    }

    @Test
    void drain_givesTheSameBest_inAnyOrder() {
        Random random = new Random(5);
        float[] scores = new float[3000];
        TopScores top = new TopScores(100);
        for (int i = 0; i < scores.length; i++) {
            scores[i] = (float) random.nextGaussian();
            top.offer(i, scores[i]);
        }
        int[] slots = new int[100];
        float[] best = new float[100];

        assertThat(top.drain(slots, best)).isEqualTo(100);

        assertThat(slots).containsExactlyInAnyOrder(expectedBest(scores, 100));
        for (int i = 0; i < slots.length; i++) {
            assertThat(best[i]).isEqualTo(scores[slots[i]]);
        }
    }

    @Test
    void scoreAt_isTheScoreOfThatRank() {
        Random random = new Random(9);
        float[] scores = new float[2000];
        TopScores top = new TopScores(300);
        for (int i = 0; i < scores.length; i++) {
            scores[i] = random.nextFloat();
            top.offer(i, scores[i]);
        }
        int[] expected = expectedBest(scores, 300);

        for (int rank : new int[] {1, 2, 100, 299, 300}) {
            assertThat(top.scoreAt(rank)).as("rank %d", rank).isEqualTo(scores[expected[rank - 1]]);
        }
        assertThatThrownBy(() -> top.scoreAt(301)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rank 301 is not within [1, 300]");
        assertThatThrownBy(() -> top.scoreAt(0)).hasMessageContaining("rank 0");
    }

    @Test
    void threshold_neverExceedsTheLowestKept_andRejectsWhatCannotEnter() {
        Random random = new Random(13);
        TopScores top = new TopScores(10);
        assertThat(top.threshold()).isEqualTo(Float.NEGATIVE_INFINITY);
        float[] scores = new float[5000];
        float previous = Float.NEGATIVE_INFINITY;
        for (int i = 0; i < scores.length; i++) {
            scores[i] = random.nextFloat();
            top.offer(i, scores[i]);
            float threshold = top.threshold();
            assertThat(threshold).isGreaterThanOrEqualTo(previous);
            previous = threshold;
        }
        int[] expected = expectedBest(scores, 10);
        assertThat(top.threshold()).isGreaterThan(0.9f).isLessThanOrEqualTo(scores[expected[9]]);
    }

    @Test
    void offerAll_mergesTwoParts_leavingTheOtherUnchanged() {
        Random random = new Random(17);
        float[] scores = new float[4000];
        TopScores first = new TopScores(50);
        TopScores second = new TopScores(50);
        for (int i = 0; i < scores.length; i++) {
            scores[i] = random.nextFloat();
            (i % 3 == 0 ? first : second).offer(i, scores[i]);
        }
        int secondSize = second.size();

        first.offerAll(second);

        int[] slots = new int[50];
        assertThat(first.drainDescending(slots, new float[50])).isEqualTo(50);
        assertThat(slots).containsExactly(expectedBest(scores, 50));
        assertThat(second.size()).isEqualTo(secondSize);
    }

    @Test
    void select_placesTheValue_onSortedReversedAndRandomInput() {
        Random random = new Random(21);
        long[][] inputs = {
            IntStream.range(0, 1000).asLongStream().toArray(),
            IntStream.range(0, 1000).mapToLong(i -> 1000 - i).toArray(),
            random.longs(1000).toArray(),
            // Organ pipe: ascending then descending.
            IntStream.range(0, 1000).mapToLong(i -> Math.min(i, 1000 - i) * 2L + (i < 500 ? 0 : 1)).toArray()};
        for (long[] input : inputs) {
            long[] sorted = input.clone();
            Arrays.sort(sorted);
            for (int at : new int[] {0, 1, 499, 998, 999}) {
                long[] a = input.clone();
                TopScores.select(a, 0, a.length, at);
                assertThat(a[at]).isEqualTo(sorted[at]);
                for (int i = 0; i < a.length; i++) {
                    assertThat(i < at ? a[i] <= a[at] : a[i] >= a[at]).as("index %d around %d", i, at).isTrue();
                }
            }
        }
    }

    @Test
    void entries_orderAsTheirScores_andGiveBackScoreAndSlot() {
        float[] ordered = {Float.NEGATIVE_INFINITY, -3.5f, -Float.MIN_VALUE, -0f, 0f, Float.MIN_VALUE, 1f,
            Float.MAX_VALUE, Float.POSITIVE_INFINITY};
        for (int i = 0; i < ordered.length; i++) {
            long entry = TopScores.entry(ordered[i], 1234);
            assertThat(TopScores.score(entry)).isEqualTo(ordered[i]);
            assertThat(TopScores.slot(entry)).isEqualTo(1234);
            if (i > 0) {
                assertThat(entry).isGreaterThan(TopScores.entry(ordered[i - 1], 0));
            }
        }
        assertThat(TopScores.entry(1f, 3)).isGreaterThan(TopScores.entry(1f, 4));
        assertThat(TopScores.slot(TopScores.entry(1f, Integer.MAX_VALUE))).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void constructor_nonPositiveK_throws() {
        assertThatThrownBy(() -> new TopScores(0)).hasMessageContaining("k must be positive: 0");
    }

    /** The slots of the best {@code k} by score, lower slot first on ties. */
    private static int[] expectedBest(float[] scores, int k) {
        return IntStream.range(0, scores.length).boxed()
                .sorted(Comparator.comparingDouble((Integer i) -> -scores[i]).thenComparing(i -> i))
                .limit(k).mapToInt(Integer::intValue).toArray();
    }
}
