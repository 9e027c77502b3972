package dev.memfas.core;

import dev.memfas.spi.Embedder;
import dev.memfas.policy.WorldKnowledgeProbe;
import java.util.OptionalDouble;

/**
 * The model-dependent cosines a curator runs on: each the one set on the builder, else the embedder's calibrated one,
 * else a fallback; a calibrated value outside [-1, 1] is refused, naming the model.
 *
 * @param embedder the curator's embedder, or null
 */
record ModelCalibration(Embedder embedder) {
    /**
     * The topic-shift threshold of an embedder that has none, the value used before thresholds were calibrated per
     * model; an embedder of one's own should say its own ({@code TopicShiftCalibration} in memfas-bench shows how the
     * built-in ones were measured).
     */
    static final double UNCALIBRATED_TOPIC_SHIFT = 0.35;

    /** The topic-shift threshold: {@code set} unless NaN, else the embedder's, else {@link #UNCALIBRATED_TOPIC_SHIFT}. */
    double topicShiftThreshold(double set) {
        return calibrated(set, embedder == null ? OptionalDouble.empty() : embedder.topicShiftThreshold(),
                UNCALIBRATED_TOPIC_SHIFT, "topic shift threshold");
    }

    /** The relevance floor: {@code set} unless NaN, else the embedder's, else -1 (no floor). */
    double relevanceFloor(double set) {
        return calibrated(set, embedder == null ? OptionalDouble.empty() : embedder.relevanceFloor(), -1,
                "relevance floor");
    }

    /**
     * The meaning-alone floor: {@code set} unless NaN, else the embedder's, else the relevance floor (meaning alone
     * decides); never under the relevance floor, and -1 when there is no floor.
     *
     * @param floor the relevance floor the curator runs on ({@link #relevanceFloor})
     * @throws IllegalArgumentException if {@code set} is under {@code floor}
     */
    double meaningAloneFloor(double set, double floor) {
        if (floor <= -1) {
            return -1;
        }
        if (!Double.isNaN(set) && set < floor) {
            throw new IllegalArgumentException("meaning-alone floor must not be under the relevance floor " + floor
                    + ": " + set);
        }
        double value = calibrated(set, embedder == null ? OptionalDouble.empty() : embedder.meaningAloneFloor(), floor,
                "meaning-alone floor");
        return Math.max(value, floor);
    }

    /**
     * The embedder's world-knowledge probe, or null when there is none (or no embedder).
     *
     * @throws IllegalArgumentException if the probe reads vectors of another length than the embedder's
     */
    WorldKnowledgeProbe worldKnowledgeProbe() {
        WorldKnowledgeProbe probe = embedder == null ? null : embedder.worldKnowledgeProbe().orElse(null);
        if (probe != null && probe.dimension() != embedder.dimension()) {
            throw new IllegalArgumentException("the embedder's world-knowledge probe reads " + probe.dimension()
                    + " dimensions and its vectors have " + embedder.dimension() + " (" + embedder.modelId() + ")");
        }
        return probe;
    }

    private double calibrated(double set, OptionalDouble fromEmbedder, double fallback, String name) {
        if (!Double.isNaN(set)) {
            return set;
        }
        double value = fromEmbedder.orElse(fallback);
        if (!(value >= -1 && value <= 1)) {
            throw new IllegalArgumentException("the embedder's " + name + " must be in [-1, 1]: " + value + " ("
                    + embedder.modelId() + ")");
        }
        return value;
    }
}
