package dev.memfas.spi;

import dev.memfas.internal.Checks;
import java.util.Objects;

/**
 * The embedding model and dimension that a set of vectors belongs to. Vectors of different spaces are never compared:
 * a store holds vectors of one space only.
 *
 * @param modelId the embedder's {@link Embedder#modelId()}
 * @param dimension the vector length, positive
 */
public record VectorSpace(String modelId, int dimension) {
    /**
     * Checks the components.
     *
     * @throws IllegalArgumentException if the model id is blank or the dimension not positive
     */
    public VectorSpace {
        Checks.identifier(Objects.requireNonNull(modelId, "modelId"), "model id", 256);
        if (dimension <= 0) {
            throw new IllegalArgumentException("vector dimension must be positive: " + dimension);
        }
    }

    @Override
    public String toString() {
        return modelId + "/" + dimension;
    }
}
