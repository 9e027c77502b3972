package dev.memfas.cli;

import dev.memfas.spi.Embedder;
import dev.memfas.policy.WorldKnowledgeProbe;
import dev.memfas.djl.DjlEmbedder;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Consumer;

/**
 * A built-in model that is loaded the first time something is embedded, so that a command which embeds nothing (a
 * re-index of unchanged files, trigger edits, a forget) never pays the seconds a model takes to load. Its id and
 * dimension, and its calibrated floors and topic-shift threshold, are known without loading it, which is all
 * a curator needs to be built.
 *
 * <p>Thread-safe.
 */
final class LazyEmbedder implements Embedder, AutoCloseable {
    private final DjlEmbedder.BuiltInModel model;
    private final WorldKnowledgeProbe probe;
    private final Consumer<String> status;
    private DjlEmbedder loaded;
    private boolean closed;

    /**
     * @param status told "loading model …" just before the model loads
     */
    LazyEmbedder(DjlEmbedder.BuiltInModel model, Consumer<String> status) {
        this.model = model;
        this.probe = model.worldKnowledgeProbe();
        this.status = status;
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        return embedder().embedAll(texts);
    }

    @Override
    public List<float[]> embedQueries(List<String> queries) {
        return embedder().embedQueries(queries);
    }

    @Override
    public int dimension() {
        return model.dimension();
    }

    @Override
    public String modelId() {
        return model.modelId();
    }

    /** The model's calibrated floor, known without loading it, as the loaded model would say it. */
    @Override
    public OptionalDouble relevanceFloor() {
        return OptionalDouble.of(model.relevanceFloor());
    }

    /** The model's calibrated meaning-alone floor, known without loading it, as the loaded model would say it. */
    @Override
    public OptionalDouble meaningAloneFloor() {
        return OptionalDouble.of(model.meaningAloneFloor());
    }

    /** The model's calibrated topic-shift threshold, known without loading it, as the loaded model would say it. */
    @Override
    public OptionalDouble topicShiftThreshold() {
        return OptionalDouble.of(model.topicShiftThreshold());
    }

    /** The model's world-knowledge probe, read without loading the model, as the loaded model would say it. */
    @Override
    public Optional<WorldKnowledgeProbe> worldKnowledgeProbe() {
        return Optional.of(probe);
    }

    /** Whether the model has been loaded. */
    synchronized boolean isLoaded() {
        return loaded != null;
    }

    /** Loads the model if it is not loaded yet. */
    void load() {
        embedder();
    }

    private synchronized DjlEmbedder embedder() {
        if (closed) {
            throw new IllegalStateException("embedder is closed: " + model.modelId());
        }
        if (loaded == null) {
            status.accept("loading model " + model.modelId() + "…");
            loaded = Workspace.load(model);
        }
        return loaded;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (loaded != null) {
            loaded.close();
        }
    }
}
