package dev.memfas.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.policy.WorldKnowledgeProbe;
import java.util.List;
import org.junit.jupiter.api.Test;

final class WorldKnowledgeProbeTrainingTest {
    private static float[] unit(double x, double y) {
        double n = Math.hypot(x, y);
        return new float[] {(float) (x / n), (float) (y / n)};
    }

    @Test
    void fit_separatesTheTwoSides_theSameEveryRun() {
        List<float[]> world = List.of(unit(1, 0.1), unit(1, -0.2), unit(0.9, 0.3));
        List<float[]> memory = List.of(unit(-1, 0.2), unit(-0.8, -0.4), unit(-1, 0));

        WorldKnowledgeProbe probe = WorldKnowledgeProbeTraining.fit(world, memory);

        world.forEach(v -> assertThat(probe.probability(v)).isGreaterThan(0.8));
        memory.forEach(v -> assertThat(probe.probability(v)).isLessThan(0.2));
        assertThat(WorldKnowledgeProbeTraining.fit(world, memory)).isEqualTo(probe);
    }

    @Test
    void text_isTheBiasThenOneWeightALine_afterComments() {
        WorldKnowledgeProbe probe = WorldKnowledgeProbe.of(new float[] {0.5f, -1.25f}, 0.75);

        List<String> lines = WorldKnowledgeProbeTraining.text("m", probe).lines().toList();

        assertThat(lines).hasSize(5);
        assertThat(lines.subList(0, 2)).allSatisfy(l -> assertThat(l).startsWith("#"));
        assertThat(lines.subList(2, 5)).containsExactly("0.75", "0.5", "-1.25");
    }

    @Test
    void theQuestionLists_areReadWithoutCommentsOrBlankLines() {
        List<String> world = EvalData.resourceLines("world-questions.txt");
        List<String> memory = EvalData.resourceLines("memory-questions.txt");

        assertThat(world).hasSize(120).allSatisfy(q -> assertThat(q).endsWith("?").doesNotStartWith("#"));
        assertThat(memory).hasSize(131).allSatisfy(q -> assertThat(q).endsWith("?"));
        assertThat(world).doesNotContainAnyElementsOf(EvalData.resourceLines("general-questions.txt"))
                .doesNotContainAnyElementsOf(EvalData.resourceLines("calibration-questions.txt"));
    }
}
