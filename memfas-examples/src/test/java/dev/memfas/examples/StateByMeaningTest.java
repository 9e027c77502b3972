package dev.memfas.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.core.Memfas;
import dev.memfas.djl.DjlEmbedder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** With the default model, the curator's own choice of state reads meaning, not only shared words. */
final class StateByMeaningTest {

    @Test
    void aKeyAboutTheQuery_isChosen_withoutAWordInCommon() {
        try (DjlEmbedder model = DjlEmbedder.defaultModel();
             ContextCurator curator = Memfas.newBuilder().embedder(model).build()) {
            curator.state().save("default", "notes/release-hours", "\"go-live only between 10:00 and 16:00\"");
            curator.state().save("default", "notes/lunch-order", "\"two pizzas, one salad\"");

            List<String> chosen = curator.getContext(ContextRequest.builder("when may we ship to production?")
                    .sessionId("s").state("notes/*").build()).stateKeys();

            assertThat(chosen).containsExactly("notes/release-hours");
        }
    }
}
