package dev.memfas.sqlite;

import dev.memfas.spi.Embeddings;
import dev.memfas.Memory;
import dev.memfas.spi.VectorSpace;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The process {@link CrashSafetyIT} kills: ingests batches into a store forever, printing {@code committed N} after
 * batch N's transaction has returned.
 */
public final class CrashIngestChild {
    static final int BATCH = 50;
    static final VectorSpace SPACE = new VectorSpace("crash-4", 4);

    private CrashIngestChild() {}

    public static void main(String[] args) {
        Path file = Path.of(args[0]);
        int batch = Integer.parseInt(args[1]);
        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            while (true) {
                List<Memory> memories = new ArrayList<>(BATCH);
                List<float[]> vectors = new ArrayList<>(BATCH);
                for (int i = 0; i < BATCH; i++) {
                    memories.add(Memory.builder(text(batch, i)).id(id(batch, i)).createdAt(Instant.EPOCH).build());
                    vectors.add(new float[] {batch, i, 1, 2});
                }
                store.upsertAll(memories, Embeddings.of(SPACE, vectors));
                System.out.println("committed " + batch);
                System.out.flush();
                batch++;
            }
        }
    }

    static String id(int batch, int i) {
        return "b" + batch + "-" + i;
    }

    static String text(int batch, int i) {
        return "batch " + batch + " item " + i + " " + "payload ".repeat(i % 7);
    }
}
