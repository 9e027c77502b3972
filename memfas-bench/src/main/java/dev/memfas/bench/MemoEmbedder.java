package dev.memfas.bench;

import dev.memfas.spi.Embedder;
import dev.memfas.policy.WorldKnowledgeProbe;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * Serves known texts from a map and embeds the rest, remembering them if asked to: texts (memories) and queries apart,
 * as a model may embed a query otherwise than a memory of the same words. Synchronized: the curators of a run share
 * it.
 */
final class MemoEmbedder implements Embedder {
    private final Embedder delegate;
    private final Map<String, float[]> known;
    private final Map<String, float[]> knownQueries = new HashMap<>();
    private final boolean remember;

    /**
     * @param known the texts' vectors known so far, as {@code delegate.embedAll} gives them
     * @param remember whether texts and queries embedded later are kept for the next call
     */
    MemoEmbedder(Embedder delegate, Map<String, float[]> known, boolean remember) {
        this.delegate = delegate;
        this.known = known;
        this.remember = remember;
    }

    @Override
    public synchronized List<float[]> embedAll(List<String> texts) {
        return lookUp(texts, known, delegate::embedAll);
    }

    @Override
    public synchronized List<float[]> embedQueries(List<String> queries) {
        return lookUp(queries, knownQueries, delegate::embedQueries);
    }

    private List<float[]> lookUp(List<String> texts, Map<String, float[]> map,
            Function<List<String>, List<float[]>> embed) {
        List<String> missing = texts.stream().filter(t -> !map.containsKey(t)).distinct().toList();
        Map<String, float[]> fresh = new HashMap<>();
        if (!missing.isEmpty()) {
            List<float[]> vectors = embed.apply(missing);
            for (int i = 0; i < missing.size(); i++) {
                fresh.put(missing.get(i), vectors.get(i));
            }
            if (remember) {
                map.putAll(fresh);
            }
        }
        return texts.stream().map(t -> map.containsKey(t) ? map.get(t) : fresh.get(t)).toList();
    }

    @Override
    public int dimension() {
        return delegate.dimension();
    }

    @Override
    public String modelId() {
        return delegate.modelId();
    }

    @Override
    public OptionalDouble relevanceFloor() {
        return delegate.relevanceFloor();
    }

    @Override
    public OptionalDouble meaningAloneFloor() {
        return delegate.meaningAloneFloor();
    }

    @Override
    public OptionalDouble topicShiftThreshold() {
        return delegate.topicShiftThreshold();
    }

    @Override
    public Optional<WorldKnowledgeProbe> worldKnowledgeProbe() {
        return delegate.worldKnowledgeProbe();
    }
}
