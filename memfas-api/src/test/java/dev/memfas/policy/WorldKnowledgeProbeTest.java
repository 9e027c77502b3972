package dev.memfas.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

final class WorldKnowledgeProbeTest {
    @Test
    void probability_isTheLogisticOfTheUnitVectorsScore() {
        WorldKnowledgeProbe probe = WorldKnowledgeProbe.of(new float[] {2, 0, -1}, 0.5);

        // (3, 0, 4) is (0.6, 0, 0.8) as a unit vector: 2 * 0.6 - 0.8 + 0.5 = 0.9
        assertThat(probe.probability(new float[] {3, 0, 4})).isCloseTo(1 / (1 + Math.exp(-0.9)), within(1e-9));
        assertThat(probe.probability(new float[] {0.6f, 0, 0.8f})).isCloseTo(1 / (1 + Math.exp(-0.9)), within(1e-6));
        assertThat(probe.probability(new float[] {0, 0, 0})).isCloseTo(1 / (1 + Math.exp(-0.5)), within(1e-9));
    }

    @Test
    void weights_areCopiedInAndOut() {
        float[] weights = {1, 2};
        WorldKnowledgeProbe probe = WorldKnowledgeProbe.of(weights, 0);
        weights[0] = 100;
        probe.weights()[1] = 100;

        assertThat(probe.weights()).containsExactly(1, 2);
        assertThat(probe).isEqualTo(WorldKnowledgeProbe.of(new float[] {1, 2}, 0))
                .isNotEqualTo(WorldKnowledgeProbe.of(new float[] {1, 2}, 0.1));
    }

    @Test
    void badProbesAndVectors_areRefusedNamingTheProblem() {
        assertThatThrownBy(() -> WorldKnowledgeProbe.of(new float[0], 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one weight");
        assertThatThrownBy(() -> WorldKnowledgeProbe.of(new float[] {1, Float.NaN}, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("world-knowledge probe weight 1 is not finite: NaN");
        assertThatThrownBy(() -> WorldKnowledgeProbe.of(new float[] {1}, Double.POSITIVE_INFINITY))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Infinity");
        assertThatThrownBy(() -> WorldKnowledgeProbe.of(new float[] {1, 2}, 0).probability(new float[3]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the query vector has 3 dimensions and the world-knowledge probe 2");
    }
}
