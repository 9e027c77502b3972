package dev.memfas.djl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.policy.WorldKnowledgeProbe;
import dev.memfas.core.Memfas;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The default model's world-knowledge probe, read from the real model's query vectors and used by a curator. */
final class WorldKnowledgeProbeTest {
    private static final Instant AT = Instant.parse("2026-03-04T09:00:00Z");
    private static DjlEmbedder embedder;

    @BeforeAll
    static void load() {
        embedder = DjlEmbedder.defaultModel();
    }

    @AfterAll
    static void close() {
        embedder.close();
    }

    private static double probability(String query) {
        return embedder.worldKnowledgeProbe().orElseThrow().probability(embedder.embedQueries(List.of(query)).get(0));
    }

    @Test
    void questionsAboutTheWorld_andAboutTheMemories_areToldApart() {
        // none of these is among the questions the probe was fitted on
        for (String world : List.of("What is the capital of Peru?", "Who painted the Sistine Chapel ceiling?",
                "How many minutes are in a day?", "What is the boiling point of ethanol?")) {
            assertThat(probability(world)).as(world).isGreaterThanOrEqualTo(0.8);
        }
        for (String memory : List.of("What did my brother say about his new flat?",
                "Which bug did we fix in the importer?",
                "When is my next physio session?", "What did you suggest for my daughter's birthday party?")) {
            assertThat(probability(memory)).as(memory).isLessThan(0.5);
        }
        // what the assistant said about the world is a memory: the first probe, fitted without such questions, read
        // the first at 0.82
        for (String said : List.of("In your overview of the planets, how many moons did you say Mars has?",
                "Which author did you say wrote the book about the whale?")) {
            assertThat(probability(said)).as(said).isLessThan(0.8);
        }
    }

    private static ContextCurator curator(Memfas.Builder builder) {
        ContextCurator curator = builder.embedder(embedder).build();
        curator.rememberAll(List.of(
                note("routine", "My routine on a hectic day: up at six, twenty minutes of stretching, then straight "
                        + "to work."),
                note("pg", "Our PostgreSQL listens on port 5433 on the staging box, not the default."),
                note("cat", "I adopted a grey cat called Pepper from the shelter on Saturday.")));
        return curator;
    }

    private static Memory note(String id, String text) {
        return Memory.builder(text).id(id).source("notes.md").createdAt(AT).build();
    }

    @Test
    void aWorldQuestion_withOnlyATopicalMemory_getsNothing_butWithoutTheRaiseGetsIt() {
        try (ContextCurator raised = curator(Memfas.newBuilder());
                ContextCurator plain = curator(Memfas.newBuilder().worldKnowledgeRaise(0))) {
            assertThat(raised.getContext("How many minutes are in a day?", "s").memoryIds()).isEmpty();
            assertThat(plain.getContext("How many minutes are in a day?", "s").memoryIds()).contains("routine");
        }
    }

    @Test
    void anAgentsQuestionsAboutItsTools_readAsItsOwn_andAreCuratedAsBefore() {
        assertThat(probability("Which port does PostgreSQL listen on?")).isLessThan(0.8);
        assertThat(probability("How do I rebase a branch in git?")).isLessThan(0.8);
        try (ContextCurator curator = curator(Memfas.newBuilder())) {
            assertThat(curator.getContext("Which port does PostgreSQL listen on?", "s").memoryIds()).startsWith("pg");
            assertThat(curator.getContext("What is my cat's name?", "s").memoryIds()).startsWith("cat");
        }
    }

    @Test
    void everyBuiltInModel_shipsAProbe_andOtherPoolingOrNullHasNone() {
        for (DjlEmbedder.BuiltInModel model : DjlEmbedder.BuiltInModel.values()) {
            assertThat(model.worldKnowledgeProbe().dimension()).as(model.modelId()).isEqualTo(model.dimension());
        }
        try (DjlEmbedder mean = DjlEmbedder.builder().pooling(DjlEmbedder.Pooling.MEAN).build();
                DjlEmbedder none = DjlEmbedder.builder().worldKnowledgeProbe(null).build()) {
            assertThat(mean.worldKnowledgeProbe()).isEmpty();
            assertThat(none.worldKnowledgeProbe()).isEmpty();
        }
        assertThat(embedder.worldKnowledgeProbe()).contains(DjlEmbedder.DEFAULT_MODEL.worldKnowledgeProbe());
    }

    @Test
    void aProbeOfAnotherDimension_isRefusedNamingBoth() {
        assertThatThrownBy(() -> DjlEmbedder.builder().worldKnowledgeProbe(WorldKnowledgeProbe.of(new float[8], 0))
                .build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the world-knowledge probe reads 8 dimensions and model 'bge-small-en-v1.5-q' has 384");
    }
}
