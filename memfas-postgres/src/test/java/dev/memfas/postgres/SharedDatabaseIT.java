package dev.memfas.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several JVMs share one PostgreSQL database, each remembering and curating ({@link SharingChild}): every write one
 * acknowledges is found by meaning in every other's next turn, and at the end all count the same memories. Then the
 * same with faults: a writer killed with SIGKILL in the middle of its batches, and the server restarted mid-run.
 */
final class SharedDatabaseIT {
    private static final Pattern RESULT = Pattern.compile("result writes=(\\d+) checks=(\\d+) turns=(\\d+) "
            + "violations=(\\d+) errors=(\\d+) memories=(\\d+) vectors=(\\d+)");
    private static final int SECONDS = Integer.getInteger("memfas.it.seconds", 60);

    @TempDir
    Path dir;

    /** What one process printed. */
    private record Outcome(String name, long writes, long checks, long turns, long violations, long errors,
            long memories, long vectors, List<String> lines) {}

    @Test
    void fourProcesses_shareOneDatabaseForAMinute_andEachSeesEveryAcknowledgedWriteInItsNextTurn() throws Exception {
        String url = EmbeddedPostgres.shared().newSchemaUrl();
        PostgresMemoryStore.open(url).close();

        List<Outcome> outcomes = runSharing(url, 4, SECONDS, null);

        long written = outcomes.stream().mapToLong(Outcome::writes).sum();
        for (Outcome o : outcomes) {
            assertThat(o.violations()).as("%s: acknowledged writes its next turn missed: %s", o.name(), o.lines())
                    .isZero();
            assertThat(o.errors()).as("%s: %s", o.name(), o.lines()).isZero();
            assertThat(o.checks()).as(o.name()).isGreaterThan(20);
            assertThat(o.memories()).as("%s counts", o.name()).isEqualTo(written);
            assertThat(o.vectors()).as("%s indexes", o.name()).isEqualTo(written);
        }
        try (PostgresMemoryStore store = PostgresMemoryStore.open(url)) {
            assertThat(store.count("default")).isEqualTo(written);
        }
        System.out.println("shared database: " + outcomes.size() + " processes, " + SECONDS + " s, " + written
                + " memories written, " + outcomes.stream().mapToLong(Outcome::checks).sum() + " cross-process checks, "
                + outcomes.stream().mapToLong(Outcome::turns).sum() + " turns");
    }

    @Test
    void aWriterKilledMidBatch_andTheServerRestartedMidRun_loseNoAcknowledgedWrite() throws Exception {
        try (EmbeddedPostgres server = EmbeddedPostgres.startNew()) {
            String url = server.jdbcUrl();
            PostgresMemoryStore.open(url).close();
            AtomicInteger lastBatch = new AtomicInteger(-1);
            Process writer = new ProcessBuilder(javaBinary(), "-cp", System.getProperty("java.class.path"),
                    SharingChild.class.getName(), "batches", url, "0")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            Thread reader = new Thread(() -> readCommitted(writer, lastBatch));
            reader.start();

            int seconds = Math.max(20, SECONDS / 2);
            List<Outcome> outcomes = runSharing(url, 3, seconds, () -> {
                // A third of the way in: kill the batch writer; half way: restart the server.
                sleep(seconds * 1000L / 3);
                writer.destroyForcibly();
                sleep(seconds * 1000L / 6);
                server.stop();
                sleep(3000);
                try {
                    server.start();
                } catch (java.io.IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            reader.join();

            long written = outcomes.stream().mapToLong(Outcome::writes).sum();
            long total = outcomes.get(0).memories();
            for (Outcome o : outcomes) {
                assertThat(o.violations()).as("%s: %s", o.name(), o.lines()).isZero();
                assertThat(o.memories()).as("%s counts", o.name()).isEqualTo(total);
                // The batch writer stores no vectors: the indexes hold the sharing processes' memories.
                assertThat(o.vectors()).as("%s indexes", o.name()).isEqualTo(written);
                assertThat(o.lines()).filteredOn(l -> l.startsWith("error "))
                        .allSatisfy(l -> assertThat(l).contains("the server cannot be reached or closed the "
                                + "connection"));
            }
            assertThat(outcomes).as("the restart was noticed").anyMatch(o -> o.errors() > 0);
            System.out.println("faults: " + seconds + " s, writer killed after batch " + lastBatch.get() + ", server "
                    + "restarted; " + written + " memories written by 3 processes, errors while down: "
                    + outcomes.stream().map(o -> o.name() + "=" + o.errors()).toList() + ", cross-process checks "
                    + outcomes.stream().mapToLong(Outcome::checks).sum() + ", violations 0");
            try (PostgresMemoryStore store = PostgresMemoryStore.open(url)) {
                assertThat(store.count("default")).isEqualTo(total);
                assertThat(store.count("default")).as("every acknowledged write, and no other")
                        .isEqualTo(written + (long) 20 * (lastBatch.get() + 1)
                                + (store.get("default", "b" + (lastBatch.get() + 1) + "-0").isPresent() ? 20 : 0));
                assertThat(lastBatch.get()).as("the writer committed batches before it was killed").isPositive();
                for (int b = 0; b <= lastBatch.get() + 1; b++) {
                    List<String> ids = new ArrayList<>();
                    for (int i = 0; i < 20; i++) {
                        ids.add("b" + b + "-" + i);
                    }
                    int present = store.getAll("default", ids).size();
                    assertThat(present).as("batch %d: all or nothing", b).isIn(0, 20);
                    if (b <= lastBatch.get()) {
                        assertThat(present).as("acknowledged batch %d", b).isEqualTo(20);
                    }
                }
            }
        }
    }

    /** Runs the sharing processes (and the fault, if any, on this thread meanwhile); returns what each printed. */
    private List<Outcome> runSharing(String url, int processes, int seconds, Runnable fault) throws Exception {
        List<Process> children = new ArrayList<>();
        for (int i = 0; i < processes; i++) {
            children.add(new ProcessBuilder(javaBinary(), "-Dprocesses=" + processes, "-Xmx256m",
                    "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                    "-cp", System.getProperty("java.class.path"), SharingChild.class.getName(), "share", url,
                    "p" + i, Integer.toString(seconds), dir.toString())
                    .redirectErrorStream(true).start());
        }
        Map<String, List<String>> printed = new TreeMap<>();
        List<Thread> readers = new ArrayList<>();
        for (int i = 0; i < processes; i++) {
            List<String> lines = new ArrayList<>();
            printed.put("p" + i, lines);
            Process child = children.get(i);
            Thread t = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(
                        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        synchronized (lines) {
                            lines.add(line);
                        }
                    }
                } catch (java.io.IOException ignored) {
                    // the child ended
                }
            });
            t.start();
            readers.add(t);
        }
        if (fault != null) {
            fault.run();
        }
        for (Process child : children) {
            if (!child.waitFor(seconds + 300L, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        }
        for (Thread t : readers) {
            t.join();
        }
        List<Outcome> outcomes = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : printed.entrySet()) {
            Matcher m = e.getValue().stream().map(RESULT::matcher).filter(Matcher::matches).findFirst()
                    .orElseThrow(() -> new AssertionError(e.getKey() + " printed no result: " + e.getValue()));
            outcomes.add(new Outcome(e.getKey(), Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
                    Long.parseLong(m.group(3)), Long.parseLong(m.group(4)), Long.parseLong(m.group(5)),
                    Long.parseLong(m.group(6)), Long.parseLong(m.group(7)), e.getValue()));
        }
        return outcomes;
    }

    private static void readCommitted(Process writer, AtomicInteger lastBatch) {
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith("committed ")) {
                    lastBatch.set(Integer.parseInt(line.substring("committed ".length())));
                }
            }
        } catch (java.io.IOException ignored) {
            // the pipe closes when the writer is killed
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
