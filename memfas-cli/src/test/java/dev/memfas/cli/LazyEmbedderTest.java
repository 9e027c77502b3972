package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.djl.DjlEmbedder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a curator needs of the model is known before the model loads, and is what the loaded model says. */
final class LazyEmbedderTest {
    @Test
    void calibratedCosines_areTheModels_withoutLoadingIt() {
        List<String> told = new ArrayList<>();
        for (DjlEmbedder.BuiltInModel m : DjlEmbedder.BuiltInModel.values()) {
            try (LazyEmbedder lazy = new LazyEmbedder(m, told::add)) {
                assertThat(lazy.modelId()).isEqualTo(m.modelId());
                assertThat(lazy.relevanceFloor()).hasValue(m.relevanceFloor());
                assertThat(lazy.meaningAloneFloor()).hasValue(m.meaningAloneFloor());
                assertThat(lazy.topicShiftThreshold()).hasValue(m.topicShiftThreshold());
                assertThat(lazy.isLoaded()).isFalse();
            }
        }
        assertThat(told).isEmpty();
    }
}
