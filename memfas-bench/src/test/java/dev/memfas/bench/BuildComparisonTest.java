package dev.memfas.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A smoke run of the comparison: this build against itself, each in a class loader of its own, tiny sizes. */
final class BuildComparisonTest {

    @Test
    void thisBuildAgainstItself_timesEveryRoundOfBoth() throws Exception {
        List<URL> classPath = BuildComparison.ownClassPath();

        BuildComparison.Result result = BuildComparison.compare(List.of("first", "second"),
                List.of(classPath, classPath), 1000, 3, 20, 1, true);

        assertThat(result.millis()).hasDimensions(2, 3);
        for (double[] build : result.millis()) {
            for (double m : build) {
                assertThat(m).isPositive().isFinite();
            }
        }
        assertThat(result.meanRatio(1)).isPositive().isFinite();
        assertThat(result.table()).contains("| first |").contains("| second |").containsPattern("\\d\\.\\d{3} ± ");
    }

    @Test
    void noRounds_isRefusedWithTheValues() {
        assertThatThrownBy(() -> BuildComparison.compare(List.of("a"), List.of(List.of()), 1000, 0, 20, 1, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0, 20, 1");
    }

    @Test
    void main_withoutTheOtherBuild_saysWhatIsMissing() {
        assertThatThrownBy(() -> BuildComparison.main(new String[] {"--rounds", "2"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("benchmarks.jar");
    }
}
