package dev.memfas.djl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15.BgeSmallEnV15EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.e5smallv2q.E5SmallV2QuantizedEmbeddingModel;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Our vectors agree with LangChain4j's own implementation of the same models (its ONNX Runtime session, its pooling)
 * to cosine 0.9999 on varied sentences. Our embedder is built first in each test, so DJL creates the ONNX Runtime
 * environment.
 */
final class ParityTest {

    @Test
    void allMiniLm_matchesLangChain4j() {
        check(DjlEmbedder.BuiltInModel.ALL_MINILM_L6_V2, AllMiniLmL6V2EmbeddingModel::new);
    }

    @Test
    void bgeSmall_matchesLangChain4j() {
        check(DjlEmbedder.BuiltInModel.BGE_SMALL_EN_V15, BgeSmallEnV15EmbeddingModel::new);
    }

    @Test
    void bgeSmallQuantized_matchesLangChain4j() {
        check(DjlEmbedder.BuiltInModel.BGE_SMALL_EN_V15_Q, BgeSmallEnV15QuantizedEmbeddingModel::new);
    }

    /** LangChain4j reads the text as given: ours is compared without the prefixes the model card asks for. */
    @Test
    void e5SmallQuantized_withoutItsPrefixes_matchesLangChain4j() {
        check(DjlEmbedder.builder().model(DjlEmbedder.BuiltInModel.E5_SMALL_V2_Q).prefixes("", ""),
                DjlEmbedder.BuiltInModel.E5_SMALL_V2_Q, E5SmallV2QuantizedEmbeddingModel::new);
    }

    private static void check(DjlEmbedder.BuiltInModel builtIn, Supplier<EmbeddingModel> peer) {
        check(DjlEmbedder.builder().model(builtIn), builtIn, peer);
    }

    private static void check(DjlEmbedder.Builder builder, DjlEmbedder.BuiltInModel builtIn,
            Supplier<EmbeddingModel> peer) {
        List<String> sentences = ParitySentences.all();
        assertThat(sentences).hasSizeGreaterThanOrEqualTo(50);
        try (DjlEmbedder ours = builder.build()) {
            EmbeddingModel theirs = peer.get();
            List<float[]> batched = ours.embedAll(sentences);
            double worst = 1;
            for (int i = 0; i < sentences.size(); i++) {
                Embedding reference = theirs.embed(TextSegment.from(sentences.get(i))).content();
                double cos = cosine(batched.get(i), reference.vector());
                worst = Math.min(worst, cos);
                assertThat(cos).as("%s: '%s'", builtIn, sentences.get(i)).isGreaterThanOrEqualTo(0.9999);
            }
            System.out.printf("%s parity over %d sentences: worst cosine %.6f%n", builtIn, sentences.size(), worst);
        }
    }

    static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
            na += (double) a[i] * a[i];
            nb += (double) b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }
}
