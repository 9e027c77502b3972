package dev.memfas.bench;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15.BgeSmallEnV15EmbeddingModel;
import dev.memfas.djl.DjlEmbedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@link DjlEmbedder} against LangChain4j's in-process implementation of the same model, in one JVM, alternating
 * round by round so both see the same machine: single-query latency (median, p95) and throughput at batch 1, 8 and 32,
 * a check that both give the same vectors, and the process's resident memory after each model loads.
 *
 * <p>Run: {@code ./mvnw -B -q -pl memfas-bench -am package -DskipTests && java -cp
 * memfas-bench/target/benchmarks.jar dev.memfas.bench.EmbedderComparison [minilm|bge] [rounds]}
 */
public final class EmbedderComparison {
    private static final String[] WORDS = ("the team decided to deploy billing service kafka retention policy grafana "
            + "dashboards on call rotation migrations postgres release train incident review customer invoice time "
            + "zone flaky test records builder memory context budget tokens session topic shift").split(" ");

    private EmbedderComparison() {}

    public static void main(String[] args) throws IOException {
        boolean bge = args.length > 0 && args[0].equalsIgnoreCase("bge");
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        long rssStart = rssKb();
        // DJL must create the ONNX Runtime environment, so ours loads first.
        DjlEmbedder ours = DjlEmbedder.builder()
                .model(bge ? DjlEmbedder.BuiltInModel.BGE_SMALL_EN_V15 : DjlEmbedder.BuiltInModel.ALL_MINILM_L6_V2)
                .build();
        long rssOurs = rssKb();
        EmbeddingModel theirs = bge ? new BgeSmallEnV15EmbeddingModel() : new AllMiniLmL6V2EmbeddingModel();
        long rssBoth = rssKb();

        List<String> texts = texts(32 * 4, 42);
        double worst = 1;
        List<float[]> mine = ours.embedAll(texts);
        for (int i = 0; i < texts.size(); i++) {
            worst = Math.min(worst, cosine(mine.get(i), theirs.embed(texts.get(i)).content().vector()));
        }

        for (int warm = 0; warm < 5; warm++) {
            for (int batch : new int[] {1, 8, 32}) {
                timeOurs(ours, texts.subList(0, batch));
                timeTheirs(theirs, texts.subList(0, batch));
            }
        }
        int[] batches = {1, 8, 32};
        double[][] oursNanos = new double[batches.length][rounds];
        double[][] theirsNanos = new double[batches.length][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int b = 0; b < batches.length; b++) {
                List<String> batch = texts.subList((r * batches[b]) % (texts.size() - 32), 
                        (r * batches[b]) % (texts.size() - 32) + batches[b]);
                if (r % 2 == 0) {
                    oursNanos[b][r] = timeOurs(ours, batch);
                    theirsNanos[b][r] = timeTheirs(theirs, batch);
                } else {
                    theirsNanos[b][r] = timeTheirs(theirs, batch);
                    oursNanos[b][r] = timeOurs(ours, batch);
                }
            }
        }

        System.out.printf(Locale.ROOT, "model %s, %d rounds, %d cores, worst cosine ours vs theirs %.6f%n",
                ours.modelId(), rounds, Runtime.getRuntime().availableProcessors(), worst);
        System.out.printf(Locale.ROOT, "single query latency: ours median %.2f ms p95 %.2f ms | theirs median %.2f ms "
                        + "p95 %.2f ms%n", percentile(oursNanos[0], 50) / 1e6, percentile(oursNanos[0], 95) / 1e6,
                percentile(theirsNanos[0], 50) / 1e6, percentile(theirsNanos[0], 95) / 1e6);
        for (int b = 0; b < batches.length; b++) {
            double oursRate = batches[b] / (percentile(oursNanos[b], 50) / 1e9);
            double theirsRate = batches[b] / (percentile(theirsNanos[b], 50) / 1e9);
            System.out.printf(Locale.ROOT, "batch %2d throughput: ours %.0f texts/s | theirs %.0f texts/s | ratio %.2f%n",
                    batches[b], oursRate, theirsRate, oursRate / theirsRate);
        }
        System.out.printf(Locale.ROOT, "RSS: %d MB at start, %d MB after our model, %d MB after both%n",
                rssStart / 1024, rssOurs / 1024, rssBoth / 1024);
        ours.close();
    }

    private static long timeOurs(DjlEmbedder ours, List<String> batch) {
        settle();
        long t = System.nanoTime();
        ours.embedAll(batch);
        return System.nanoTime() - t;
    }

    private static long timeTheirs(EmbeddingModel theirs, List<String> batch) {
        List<TextSegment> segments = new ArrayList<>(batch.size());
        batch.forEach(s -> segments.add(TextSegment.from(s)));
        settle();
        long t = System.nanoTime();
        theirs.embedAll(segments);
        return System.nanoTime() - t;
    }

    /**
     * Waits for the previous call's threads to go idle: LangChain4j's session spins its ONNX Runtime threads after a
     * call (ours does not), and on two cores a spinning thread would slow whichever call comes next.
     */
    private static void settle() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Sentences of 8 to 40 words drawn from a fixed vocabulary. */
    static List<String> texts(int n, long seed) {
        java.util.Random random = new java.util.Random(seed);
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int words = 8 + random.nextInt(33);
            StringBuilder sb = new StringBuilder();
            for (int w = 0; w < words; w++) {
                sb.append(w == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
            }
            out.add(sb.append('.').toString());
        }
        return out;
    }

    static double percentile(double[] values, double p) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
            na += (double) a[i] * a[i];
            nb += (double) b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }

    private static long rssKb() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("\\D+", ""));
            }
        }
        return -1;
    }
}
