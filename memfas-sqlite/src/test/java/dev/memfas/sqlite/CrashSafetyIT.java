package dev.memfas.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.spi.StoredMemory;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills an ingesting child JVM with SIGKILL at random moments, 20 times, and checks after each kill that every batch
 * the child reported committed is there in full, no batch is there in part, and the file passes integrity_check.
 */
final class CrashSafetyIT {
    @TempDir
    Path dir;

    @Test
    void sigkillDuringIngest_losesNoCommittedBatch_andLeavesNoHalfBatch() throws Exception {
        Path file = dir.resolve("crash.db");
        Random random = new Random(2026);
        int nextBatch = 0;
        int kills = 0;
        int totalCommitted = 0;
        for (int round = 0; round < 20; round++) {
            int firstBatch = nextBatch;
            Process child = new ProcessBuilder(javaBinary(), "-cp", System.getProperty("java.class.path"),
                    CrashIngestChild.class.getName(), file.toString(), Integer.toString(firstBatch))
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            AtomicInteger lastCommitted = new AtomicInteger(-1);
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(
                        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        if (line.startsWith("committed ")) {
                            lastCommitted.set(Integer.parseInt(line.substring("committed ".length())));
                        }
                    }
                } catch (java.io.IOException ignored) {
                    // The pipe closes when the child dies.
                }
            });
            reader.start();
            // Wait until the child is ingesting, then kill it a random while later.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (lastCommitted.get() < firstBatch && child.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(child.isAlive()).as("child still ingesting in round %d", round).isTrue();
            Thread.sleep(random.nextInt(400));
            int reportedBeforeKill = lastCommitted.get();
            child.destroyForcibly();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            reader.join(10_000);
            kills++;

            try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
                assertThat(store.integrityCheck()).as("round %d", round).isEqualTo("ok");
                int present = checkBatches(store, firstBatch);
                assertThat(present).as("round %d: batches present", round)
                        .isGreaterThanOrEqualTo(reportedBeforeKill - firstBatch + 1);
                totalCommitted += present;
                nextBatch = firstBatch + present;
                assertThat(store.count("default")).isEqualTo((long) nextBatch * CrashIngestChild.BATCH);
            }
        }
        assertThat(kills).isEqualTo(20);
        assertThat(totalCommitted).isPositive();
    }

    /**
     * Checks batches from {@code first} on: each is complete (all ids, exact texts, vectors) or absent, and no batch
     * follows an absent one (checked for a further 20). Returns how many are complete.
     */
    private static int checkBatches(SqliteMemoryStore store, int first) {
        Map<String, float[]> vectors = new HashMap<>();
        store.forEachVector("default", vectors::put);
        int complete = 0;
        boolean gap = false;
        int absentAfterGap = 0;
        for (int b = first; absentAfterGap < 20; b++) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < CrashIngestChild.BATCH; i++) {
                ids.add(CrashIngestChild.id(b, i));
            }
            List<StoredMemory> found = store.getAll("default", ids);
            if (found.isEmpty()) {
                gap = true;
                absentAfterGap++;
                continue;
            }
            assertThat(gap).as("batch %d present after a missing one", b).isFalse();
            assertThat(found).as("batch %d is whole", b).hasSize(CrashIngestChild.BATCH);
            for (int i = 0; i < CrashIngestChild.BATCH; i++) {
                assertThat(found.get(i).memory().text()).isEqualTo(CrashIngestChild.text(b, i));
                assertThat(vectors.get(CrashIngestChild.id(b, i))).containsExactly(b, i, 1, 2);
            }
            complete++;
        }
        return complete;
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
