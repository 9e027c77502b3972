package dev.memfas.bench;

import dev.memfas.djl.DjlEmbedder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Measures a built-in model's topic-shift threshold: the cosine between a turn and the session topic below which the
 * turn starts a new topic. The conversations of {@code topic-conversations.txt} each stay on one topic; their topic is
 * moved turn by turn as a session moves it (70% of the topic kept, the turn's unit vector mixed in, normalized). Every
 * turn after the first, read against its own conversation's topic so far, is a "same topic" sample; every other
 * conversation's opening, read against a conversation's topic after each of its turns, is a "shift" sample. The
 * threshold is the highest cosine, to a hundredth, below which at most {@link #MAX_FALSE_SHIFTS} of the same-topic
 * turns fall: it finds as many shifts as it can while rarely cutting a conversation short. It prints both error
 * rates at the threshold.
 *
 * <pre>
 * java -cp memfas-bench/target/benchmarks.jar dev.memfas.bench.TopicShiftCalibration [--model M]
 * </pre>
 */
public final class TopicShiftCalibration {
    /**
     * The most same-topic turns that may read as shifts. A false shift forgets the session's hot memories and restarts
     * its topic from one turn; a missed one lets the last topic's memories linger a few turns: the first is the worse.
     */
    static final double MAX_FALSE_SHIFTS = 0.10;
    /** The share of the topic a turn keeps, as {@code SessionState} keeps it. */
    private static final float TOPIC_MEMORY = 0.7f;

    private TopicShiftCalibration() {}

    public static void main(String[] args) throws IOException {
        String model = DjlEmbedder.DEFAULT_MODEL.modelId();
        if (args.length == 2 && args[0].equals("--model")) {
            model = args[1];
        } else if (args.length != 0) {
            System.err.println("usage: TopicShiftCalibration [--model M]");
            System.exit(1);
        }
        try (DjlEmbedder embedder = DjlEmbedder.builder().model(DjlEmbedder.BuiltInModel.forModelId(model)).build()) {
            System.out.println(calibrate(model, conversations(), embedder));
        }
    }

    /** The conversations of the resource, each a list of messages. */
    static List<List<String>> conversations() throws IOException {
        List<List<String>> out = new ArrayList<>();
        try (InputStream in = TopicShiftCalibration.class.getResourceAsStream("topic-conversations.txt")) {
            List<String> current = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n", -1)) {
                String s = line.strip();
                if (s.startsWith("#")) {
                    continue;
                }
                if (s.isEmpty()) {
                    if (!current.isEmpty()) {
                        out.add(current);
                        current = new ArrayList<>();
                    }
                } else {
                    current.add(s);
                }
            }
            if (!current.isEmpty()) {
                out.add(current);
            }
        }
        return out;
    }

    /** The calibration's report: the sample counts, the threshold and its two error rates. */
    static String calibrate(String model, List<List<String>> conversations, DjlEmbedder embedder) {
        List<List<float[]>> vectors = new ArrayList<>();
        for (List<String> c : conversations) {
            vectors.add(embedder.embedQueries(c));
        }
        List<Double> same = new ArrayList<>();
        List<Double> shift = new ArrayList<>();
        for (int c = 0; c < vectors.size(); c++) {
            List<float[]> turns = vectors.get(c);
            float[] topic = turns.get(0).clone();
            for (int t = 1; t <= turns.size(); t++) {
                for (int o = 0; o < vectors.size(); o++) {
                    if (o != c) {
                        shift.add(dot(vectors.get(o).get(0), topic));
                    }
                }
                if (t == turns.size()) {
                    break;
                }
                same.add(dot(turns.get(t), topic));
                topic = mix(topic, turns.get(t));
            }
        }
        double[] s = same.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double[] f = shift.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        // The highest threshold (so the most shifts found) at which at most MAX_FALSE_SHIFTS of same-topic turns read
        // as shifts, rounded down to a hundredth.
        double threshold = 0;
        for (int i = 0; i <= 100; i++) {
            if (falseShifts(s, i / 100.0) <= MAX_FALSE_SHIFTS) {
                threshold = i / 100.0;
            }
        }
        return String.format(Locale.ROOT, "%s: %d same-topic and %d shift samples; same topic %.3f to %.3f (median"
                + " %.3f), shifts %.3f to %.3f (median %.3f); topic-shift threshold %.2f: %.1f%% of same-topic turns"
                + " read as shifts, %.1f%% of shifts missed", model, s.length, f.length, s[0], s[s.length - 1],
                s[s.length / 2], f[0], f[f.length - 1], f[f.length / 2], threshold,
                100 * falseShifts(s, threshold), 100 * missedShifts(f, threshold));
    }

    private static double falseShifts(double[] same, double threshold) {
        return Arrays.stream(same).filter(x -> x < threshold).count() / (double) same.length;
    }

    private static double missedShifts(double[] shifts, double threshold) {
        return Arrays.stream(shifts).filter(x -> x >= threshold).count() / (double) shifts.length;
    }

    private static float[] mix(float[] topic, float[] turn) {
        float[] m = new float[topic.length];
        double norm = 0;
        for (int d = 0; d < m.length; d++) {
            m[d] = TOPIC_MEMORY * topic[d] + (1 - TOPIC_MEMORY) * turn[d];
            norm += m[d] * m[d];
        }
        float inv = (float) (1 / Math.sqrt(norm));
        for (int d = 0; d < m.length; d++) {
            m[d] *= inv;
        }
        return m;
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
