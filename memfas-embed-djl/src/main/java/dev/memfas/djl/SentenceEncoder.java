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
import dev.memfas.MemfasException;
import dev.memfas.djl.DjlEmbedder.Pooling;
import java.io.IOException;
import java.io.InputStream;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One loaded sentence-embedding model: its ONNX Runtime session and its tokenizer, and the way from texts to unit
 * vectors: put the model's query or text prefix in front, tokenize, group texts of similar length into model calls, run,
 * pool the token vectors, normalize.
 * {@link DjlEmbedder} is the public face that owns its lifecycle. Thread-safe until closed.
 */
final class SentenceEncoder implements AutoCloseable {
    /** The most texts tokenized at once. */
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
    private final String queryPrefix;
    private final String textPrefix;
    private final OrtEnvironment environment;
    private final OrtSession session;
    private final HuggingFaceTokenizer tokenizer;
    private final OrtSession.SessionOptions sessionOptions;
    private final List<String> inputNames;
    private final int dimension;

    SentenceEncoder(ModelSource source, int intraOpThreads) {
        this.modelId = source.modelId;
        this.maxSequenceLength = source.maxSequenceLength;
        this.pooling = source.pooling;
        this.batchesExactly = source.batchesExactly;
        this.queryPrefix = source.queryPrefix;
        this.textPrefix = source.textPrefix;
        OrtSession.SessionOptions options = null;
        OrtSession loaded = null;
        HuggingFaceTokenizer tok = null;
        try {
            options = new OrtSession.SessionOptions();
            options.setIntraOpNumThreads(intraOpThreads);
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

    /** Embeds queries, each read after the model's query prefix. */
    List<float[]> encodeQueries(List<String> queries) {
        return encode(queries, queryPrefix);
    }

    /** Embeds any other texts, each read after the model's text prefix. */
    List<float[]> encodeTexts(List<String> texts) {
        return encode(texts, textPrefix);
    }

    /** Puts the prefix before each text and embeds them, at most {@value #MAX_BATCH} texts at a time. */
    private List<float[]> encode(List<String> texts, String prefix) {
        List<String> read = texts;
        if (!prefix.isEmpty()) {
            read = new ArrayList<>(texts.size());
            for (String t : texts) {
                read.add(prefix + t);
            }
        }
        List<float[]> out = new ArrayList<>(read.size());
        for (int from = 0; from < read.size(); from += MAX_BATCH) {
            out.addAll(run(read.subList(from, Math.min(read.size(), from + MAX_BATCH))));
        }
        return out;
    }

    /** Embeds up to {@value #MAX_BATCH} texts as given: tokenized, grouped by length, run, pooled, normalized. */
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

    int dimension() {
        return dimension;
    }

    String modelId() {
        return modelId;
    }

    int maxSequenceLength() {
        return maxSequenceLength;
    }

    Pooling pooling() {
        return pooling;
    }

    /** Releases the session and the tokenizer. Not idempotent: the embedder calls it once. */
    @Override
    public void close() {
        tokenizer.close();
        try {
            session.close();
        } catch (OrtException e) {
            throw new MemfasException("cannot close model '" + modelId + "': " + e.getMessage(), e);
        } finally {
            sessionOptions.close();
        }
    }
}
