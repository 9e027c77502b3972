package dev.memfas.bench;

import dev.memfas.policy.WorldKnowledgeProbe;
import dev.memfas.core.vector.Vectors;
import dev.memfas.djl.DjlEmbedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Fits a built-in model's world-knowledge probe ({@link dev.memfas.spi.Embedder#worldKnowledgeProbe()}): a logistic
 * regression over the model's unit query vectors, questions about the world ({@code world-questions.txt}) against
 * questions about what memories hold ({@code memory-questions.txt}), both written for it. Gradient descent from zero
 * weights, the same steps every run, so the probe is reproduced from the two files; an L2 penalty of 0.001 keeps the
 * weights small. Reports how the probe reads the 40 calibration questions ({@code calibration-questions.txt}), world
 * questions it was not fitted on, and writes the probe as the embedder loads it: the bias, then one weight per line.
 *
 * <pre>
 * java -cp memfas-bench/target/benchmarks.jar dev.memfas.bench.WorldKnowledgeProbeTraining [--model M] [--out FILE]
 * </pre>
 */
public final class WorldKnowledgeProbeTraining {
    static final double PENALTY = 0.001;
    static final int STEPS = 3000;
    static final double STEP_SIZE = 1.0;

    private WorldKnowledgeProbeTraining() {}

    public static void main(String[] args) throws IOException {
        String model = DjlEmbedder.DEFAULT_MODEL.modelId();
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--model" -> model = value(args, ++i);
                case "--out" -> out = Path.of(value(args, ++i));
                default -> throw new IllegalArgumentException("unknown argument: " + args[i]
                        + " (usage: WorldKnowledgeProbeTraining [--model M] [--out FILE])");
            }
        }
        // Without the shipped probe: the one to fit may not exist yet.
        try (DjlEmbedder embedder = DjlEmbedder.builder().model(DjlEmbedder.BuiltInModel.forModelId(model))
                .worldKnowledgeProbe(null).build()) {
            List<float[]> world = unit(embedder.embedQueries(EvalData.resourceLines("world-questions.txt")));
            List<float[]> memory = unit(embedder.embedQueries(EvalData.resourceLines("memory-questions.txt")));
            WorldKnowledgeProbe probe = fit(world, memory);
            List<float[]> heldOut = embedder.embedQueries(EvalData.resourceLines("calibration-questions.txt"));
            System.out.println(report(model, probe, world, memory, heldOut));
            if (out != null) {
                Files.writeString(out, text(model, probe));
                System.out.println("written to " + out);
            }
        }
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException("missing value after " + args[i - 1]);
        }
        return args[i];
    }

    /** The probe that tells {@code world} (1) from {@code memory} (0): logistic regression by gradient descent. */
    static WorldKnowledgeProbe fit(List<float[]> world, List<float[]> memory) {
        int dim = world.get(0).length;
        List<float[]> xs = new ArrayList<>(world);
        xs.addAll(memory);
        int n = xs.size();
        double[] w = new double[dim];
        double b = 0;
        double[] gradient = new double[dim];
        for (int step = 0; step < STEPS; step++) {
            Arrays.fill(gradient, 0);
            double gradientB = 0;
            for (int i = 0; i < n; i++) {
                float[] x = xs.get(i);
                double z = b;
                for (int d = 0; d < dim; d++) {
                    z += w[d] * x[d];
                }
                double error = 1 / (1 + Math.exp(-z)) - (i < world.size() ? 1 : 0);
                for (int d = 0; d < dim; d++) {
                    gradient[d] += error * x[d];
                }
                gradientB += error;
            }
            for (int d = 0; d < dim; d++) {
                w[d] -= STEP_SIZE * (gradient[d] / n + PENALTY * w[d]);
            }
            b -= STEP_SIZE * gradientB / n;
        }
        float[] weights = new float[dim];
        for (int d = 0; d < dim; d++) {
            weights[d] = (float) w[d];
        }
        return WorldKnowledgeProbe.of(weights, b);
    }

    /** How the probe reads its training questions and the held-out world questions. */
    static String report(String model, WorldKnowledgeProbe probe, List<float[]> world, List<float[]> memory,
            List<float[]> heldOut) {
        return String.format(Locale.ROOT, "%s: world questions read as world knowledge (p >= 0.8) %s; memory questions "
                        + "%s; held-out world questions (calibration-questions.txt) %s%n", model,
                share(probe, world), share(probe, memory), share(probe, heldOut));
    }

    private static String share(WorldKnowledgeProbe probe, List<float[]> vectors) {
        long high = vectors.stream().filter(v -> probe.probability(v) >= 0.8).count();
        double mean = vectors.stream().mapToDouble(probe::probability).average().orElse(Double.NaN);
        return String.format(Locale.ROOT, "%d of %d (mean p %.3f)", high, vectors.size(), mean);
    }

    /** The probe as {@code DjlEmbedder} reads it: comment lines, the bias, then the weights, one number a line. */
    static String text(String model, WorldKnowledgeProbe probe) {
        StringBuilder sb = new StringBuilder();
        sb.append("# world-knowledge probe of ").append(model).append(", written by WorldKnowledgeProbeTraining\n");
        sb.append("# from world-questions.txt and memory-questions.txt: the bias, then one weight per dimension\n");
        sb.append(probe.bias()).append('\n');
        for (float weight : probe.weights()) {
            sb.append(weight).append('\n');
        }
        return sb.toString();
    }

    private static List<float[]> unit(List<float[]> vectors) {
        return vectors.stream().map(v -> Vectors.normalizedCopy(v, v.length)).toList();
    }

}
