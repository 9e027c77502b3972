package dev.memfas.policy;

import dev.memfas.spi.Embedder;
import java.util.Arrays;
import java.util.Objects;

/**
 * Reads from a query's vector how likely the query asks about the world rather than about what the memories hold:
 * "What is the capital of France?" against "What did I tell Sarah about the wedding?". A logistic regression over the
 * model's unit query vector, trained for one model on two sets of questions; see {@link Embedder#worldKnowledgeProbe()}
 * for what the curator does with it. Immutable and thread-safe.
 */
public final class WorldKnowledgeProbe {
    private final float[] weights;
    private final double bias;

    private WorldKnowledgeProbe(float[] weights, double bias) {
        this.weights = weights;
        this.bias = bias;
    }

    /**
     * A probe with the given weights (one per dimension of the model's vectors, applied to the unit vector) and bias.
     *
     * @throws IllegalArgumentException if there are no weights, or a weight or the bias is not finite
     */
    public static WorldKnowledgeProbe of(float[] weights, double bias) {
        Objects.requireNonNull(weights, "weights");
        if (weights.length == 0) {
            throw new IllegalArgumentException("a world-knowledge probe needs at least one weight");
        }
        for (int i = 0; i < weights.length; i++) {
            if (!Float.isFinite(weights[i])) {
                throw new IllegalArgumentException("world-knowledge probe weight " + i + " is not finite: "
                        + weights[i]);
            }
        }
        if (!Double.isFinite(bias)) {
            throw new IllegalArgumentException("world-knowledge probe bias is not finite: " + bias);
        }
        return new WorldKnowledgeProbe(weights.clone(), bias);
    }

    /** The weights, one per dimension (a copy). */
    public float[] weights() {
        return weights.clone();
    }

    /** The bias. */
    public double bias() {
        return bias;
    }

    /** The length of the vectors the probe reads. */
    public int dimension() {
        return weights.length;
    }

    /**
     * The probability, from 0 to 1, that the query whose vector this is asks about the world; a zero vector, which has
     * no direction, reads as the bias alone.
     *
     * @throws IllegalArgumentException if the vector's length is not the probe's {@link #dimension()}
     */
    public double probability(float[] queryVector) {
        Objects.requireNonNull(queryVector, "queryVector");
        if (queryVector.length != weights.length) {
            throw new IllegalArgumentException("the query vector has " + queryVector.length
                    + " dimensions and the world-knowledge probe " + weights.length);
        }
        double dot = 0;
        double norm = 0;
        for (int i = 0; i < weights.length; i++) {
            dot += (double) weights[i] * queryVector[i];
            norm += (double) queryVector[i] * queryVector[i];
        }
        double z = norm == 0 ? bias : dot / Math.sqrt(norm) + bias;
        return 1 / (1 + Math.exp(-z));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WorldKnowledgeProbe p && bias == p.bias && Arrays.equals(weights, p.weights);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(weights) + Double.hashCode(bias);
    }

    @Override
    public String toString() {
        return "WorldKnowledgeProbe[dimension=" + weights.length + ", bias=" + bias + "]";
    }
}
