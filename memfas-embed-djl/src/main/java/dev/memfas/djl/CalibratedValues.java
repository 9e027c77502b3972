package dev.memfas.djl;

import dev.memfas.policy.WorldKnowledgeProbe;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What an embedder says of its model beyond the vectors: the floors, the topic-shift threshold and the world-knowledge
 * probe. Each is the one set on the builder, else the built-in model's, which was measured on the model as it ships
 * (other pooling or prefixes give other cosines and vectors), else none.
 */
record CalibratedValues(OptionalDouble relevanceFloor, OptionalDouble meaningAloneFloor,
        OptionalDouble topicShiftThreshold, Optional<WorldKnowledgeProbe> worldKnowledgeProbe) {

    /**
     * The values for a model: the floors and threshold given are those set on the builder (null where not set);
     * {@code probeSet} says whether {@code probe} was set, a null probe set meaning none.
     *
     * @throws IllegalArgumentException if the probe reads another dimension than the model's
     */
    static CalibratedValues of(DjlEmbedder.BuiltInModel builtIn, ModelSource source, Double relevanceFloor,
            Double meaningAloneFloor, Double topicShiftThreshold, boolean probeSet, WorldKnowledgeProbe probe,
            String modelId, int dimension) {
        Optional<WorldKnowledgeProbe> chosen = probeSet ? Optional.ofNullable(probe)
                : source.asShipped ? Optional.of(builtIn.worldKnowledgeProbe()) : Optional.empty();
        chosen.ifPresent(p -> {
            if (p.dimension() != dimension) {
                throw new IllegalArgumentException("the world-knowledge probe reads " + p.dimension()
                        + " dimensions and model '" + modelId + "' has " + dimension);
            }
        });
        return new CalibratedValues(value(relevanceFloor, builtIn.relevanceFloor, source),
                value(meaningAloneFloor, builtIn.meaningAloneFloor, source),
                value(topicShiftThreshold, builtIn.topicShiftThreshold, source), chosen);
    }

    private static OptionalDouble value(Double set, double builtInValue, ModelSource source) {
        return set != null ? OptionalDouble.of(set)
                : source.asShipped ? OptionalDouble.of(builtInValue) : OptionalDouble.empty();
    }
}
