package dev.memfas.djl;

import dev.memfas.MemfasException;
import dev.memfas.policy.WorldKnowledgeProbe;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads the world-knowledge probes shipped for the built-in models: resource {@code <model id>.world-knowledge} beside
 * this class, as {@code memfas-bench}'s {@code WorldKnowledgeProbeTraining} writes it (lines starting with {@code #}
 * are comments; then the bias, then one weight per dimension, a number a line).
 */
final class WorldKnowledgeProbes {
    private WorldKnowledgeProbes() {}

    static WorldKnowledgeProbe read(String modelId, int dimension) {
        String resource = modelId + ".world-knowledge";
        try (InputStream in = WorldKnowledgeProbes.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new MemfasException("the world-knowledge probe of built-in model '" + modelId
                        + "' is missing from memfas-embed-djl's jar (resource " + resource + ")");
            }
            String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(l -> !l.isBlank() && !l.startsWith("#")).toArray(String[]::new);
            if (lines.length != dimension + 1) {
                throw new MemfasException("the world-knowledge probe of built-in model '" + modelId + "' has "
                        + (lines.length - 1) + " weights, not " + dimension + " (resource " + resource + ")");
            }
            float[] weights = new float[dimension];
            for (int i = 0; i < dimension; i++) {
                weights[i] = Float.parseFloat(lines[i + 1].strip());
            }
            return WorldKnowledgeProbe.of(weights, Double.parseDouble(lines[0].strip()));
        } catch (IOException | NumberFormatException e) {
            throw new MemfasException("cannot read the world-knowledge probe of built-in model '" + modelId
                    + "' (resource " + resource + "): " + e.getMessage(), e);
        }
    }
}
