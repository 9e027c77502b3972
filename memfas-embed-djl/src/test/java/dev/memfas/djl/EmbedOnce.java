package dev.memfas.djl;

/** A child process for the ITs: loads the default model, embeds one text, prints its dimension, exits. */
public final class EmbedOnce {
    private EmbedOnce() {}

    public static void main(String[] args) throws Exception {
        try (DjlEmbedder embedder = DjlEmbedder.defaultModel()) {
            float[] v = embedder.embed("we deploy on tuesdays");
            // Give any background start-up work (telemetry, probes) time to show itself.
            Thread.sleep(1500);
            System.out.println("dimension " + v.length);
        }
    }
}
