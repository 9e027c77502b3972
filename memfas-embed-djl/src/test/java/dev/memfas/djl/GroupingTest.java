package dev.memfas.djl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

final class GroupingTest {
    @Test
    void equalShortTextsShareCallsOfAtMostThirtyTwo() {
        int[] lengths = new int[70];
        Arrays.fill(lengths, 10);
        int[] starts = SentenceEncoder.groupStarts(lengths);
        assertThat(starts).startsWith(0).hasSize(3);
        assertThat(Arrays.stream(sizes(starts, 70)).max().getAsInt()).isLessThanOrEqualTo(32);
    }

    @Test
    void aLongTextDoesNotPadShortOnes() {
        int[] lengths = {5, 6, 6, 7, 8, 9, 9, 400};
        assertThat(SentenceEncoder.groupStarts(lengths)).containsExactly(0, 7);
    }

    @Test
    void aSingleTextIsOneCall() {
        assertThat(SentenceEncoder.groupStarts(new int[] {12})).containsExactly(0);
        assertThat(SentenceEncoder.groupStarts(new int[0])).isEmpty();
    }

    @Test
    void groupingNeverCostsMoreThanFixedGroupsOfEight() {
        Random random = new Random(7);
        for (int trial = 0; trial < 200; trial++) {
            int n = 1 + random.nextInt(64);
            int[] lengths = random.ints(n, 1, 512).sorted().toArray();
            int[] starts = SentenceEncoder.groupStarts(lengths);
            assertThat(starts[0]).isZero();
            for (int i = 1; i < starts.length; i++) {
                assertThat(starts[i]).isGreaterThan(starts[i - 1]);
            }
            int[] fixed = new int[(n + 7) / 8];
            Arrays.setAll(fixed, i -> i * 8);
            assertThat(cost(lengths, starts)).isLessThanOrEqualTo(cost(lengths, fixed));
        }
    }

    private static long cost(int[] lengths, int[] starts) {
        long total = 0;
        for (int g = 0; g < starts.length; g++) {
            int end = g + 1 < starts.length ? starts[g + 1] : lengths.length;
            total += 32 + (long) (end - starts[g]) * lengths[end - 1];
        }
        return total;
    }

    private static int[] sizes(int[] starts, int n) {
        int[] sizes = new int[starts.length];
        for (int g = 0; g < starts.length; g++) {
            sizes[g] = (g + 1 < starts.length ? starts[g + 1] : n) - starts[g];
        }
        return sizes;
    }
}
