package dev.memfas.bench;

import dev.memfas.core.vector.Vectors;
import dev.memfas.djl.DjlEmbedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Measures a built-in model's relevance floor: how close a question that no memory answers comes to the memories of a
 * real conversation. Each of 40 general-knowledge questions ({@code calibration-questions.txt}, kept apart from the
 * questions {@link EvalMain} measures precision with) is asked of every conversation under the given directories, and
 * its best cosine there is recorded. The floor is the 95th percentile of those best cosines, rounded up to a hundredth:
 * a question with nothing to find stays under it 95 times in 100, and fills no budget. The meaning-alone floor is the
 * 99th percentile, rounded up: under it a turn also needs a word in common with its nearest memory. Only the
 * unanswerable side is read; how many answerable questions the floors cost is {@link EvalMain}'s to measure.
 *
 * <pre>
 * java -cp memfas-bench/target/benchmarks.jar dev.memfas.bench.RelevanceFloorCalibration DATA_DIR... [--model M]
 *     [--cache DIR]
 * </pre>
 */
public final class RelevanceFloorCalibration {
    private RelevanceFloorCalibration() {}

    public static void main(String[] args) throws IOException {
        List<Path> dirs = new ArrayList<>();
        String model = DjlEmbedder.DEFAULT_MODEL.modelId();
        Path cache = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--model" -> model = value(args, ++i);
                case "--cache" -> cache = Path.of(value(args, ++i));
                default -> dirs.add(Path.of(args[i]));
            }
        }
        if (dirs.isEmpty()) {
            System.err.println("usage: RelevanceFloorCalibration DATA_DIR... [--model M] [--cache DIR]");
            System.exit(1);
        }
        try (DjlEmbedder embedder = DjlEmbedder.builder().model(DjlEmbedder.BuiltInModel.forModelId(model)).build()) {
            double[] best = bestCosines(dirs, embedder, VectorCache.open(cache, model));
            System.out.println(report(model, best));
        }
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException("missing value after " + args[i - 1]);
        }
        return args[i];
    }

    /** The best cosine of every calibration question in every conversation under {@code dirs}. */
    static double[] bestCosines(List<Path> dirs, DjlEmbedder embedder, VectorCache cache) throws IOException {
        List<float[]> questions = embedder.embedQueries(questions()).stream()
                .map(v -> Vectors.normalizedCopy(v, v.length)).toList();
        List<Double> best = new ArrayList<>();
        for (Path dir : dirs) {
            List<Path> conversations;
            try (Stream<Path> walk = Files.walk(dir)) {
                conversations = walk.filter(d -> Files.isRegularFile(d.resolve("memories.jsonl"))).sorted().toList();
            }
            for (Path conv : conversations) {
                List<String> texts = EvalData.loadTurns(conv).stream().map(EvalData.Turn::text).toList();
                List<float[]> turns = cache.embed(texts, embedder::embedAll).stream()
                        .map(v -> Vectors.normalizedCopy(v, v.length)).toList();
                for (float[] q : questions) {
                    double max = -1;
                    for (float[] t : turns) {
                        max = Math.max(max, Vectors.dot(q, 0, t, 0, q.length));
                    }
                    best.add(max);
                }
            }
        }
        return best.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    }

    /** The percentiles of the best cosines and the floor they give. */
    static String report(String model, double[] sorted) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "%s: best cosine of a general question in a conversation, %d pairs%n", model, sorted.length));
        for (int p : new int[] {50, 90, 95, 99, 100}) {
            sb.append(String.format(Locale.ROOT, "  p%d %.4f%n", p, percentile(sorted, p)));
        }
        sb.append(String.format(Locale.ROOT, "relevance floor (p95, rounded up): %.2f%n", floor(sorted)));
        sb.append(String.format(Locale.ROOT, "meaning-alone floor (p99, rounded up): %.2f%n",
                meaningAloneFloor(sorted)));
        return sb.toString();
    }

    /** The 95th percentile of the sorted best cosines, rounded up to a hundredth. */
    static double floor(double[] sorted) {
        return Math.ceil(percentile(sorted, 95) * 100 - 1e-9) / 100;
    }

    /** The 99th percentile of the sorted best cosines, rounded up to a hundredth. */
    static double meaningAloneFloor(double[] sorted) {
        return Math.ceil(percentile(sorted, 99) * 100 - 1e-9) / 100;
    }

    private static double percentile(double[] sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static List<String> questions() {
        return EvalData.resourceLines("calibration-questions.txt");
    }
}
