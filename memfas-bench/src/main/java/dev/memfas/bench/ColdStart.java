package dev.memfas.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Cold starts of the real {@code memfas} command, what CLI and MCP users feel: the wall time of one-shot commands, how
 * long an MCP client waits for {@code initialize} and for its first {@code get_context}, how long {@code mcp --http}
 * takes to say its address, and how long it takes to exit after SIGTERM. Each variant (a command line that starts
 * memfas) runs in turn, round after round, so that the machine's drift falls on all alike; the table shows medians,
 * and beside them the start of a JVM that answers one line and does nothing else (the floor of any Java server).
 *
 * <pre>
 * ./mvnw -B -q -pl memfas-bench -am package -DskipTests
 * ./install.sh /tmp/memfas
 * java -cp memfas-bench/target/benchmarks.jar dev.memfas.bench.ColdStart --runs 7 \
 *     --variant "jar=java -jar memfas-cli/target/memfas.jar" --variant "installed=/tmp/memfas/bin/memfas"
 * </pre>
 */
public final class ColdStart {
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\","
            + "\"version\":\"1\"}}}";
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
    private static final String GET_CONTEXT = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
            + "{\"name\":\"get_context\",\"arguments\":{\"query\":\"when do we deploy billing-api?\"}}}";

    private ColdStart() {}

    public static void main(String[] args) throws Exception {
        Map<String, List<String>> variants = new LinkedHashMap<>();
        int runs = 5;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--variant" -> {
                    String v = args[++i];
                    int eq = v.indexOf('=');
                    if (eq < 1) {
                        throw new IllegalArgumentException("--variant takes NAME=COMMAND: " + v);
                    }
                    variants.put(v.substring(0, eq), List.of(v.substring(eq + 1).trim().split("\\s+")));
                }
                default -> throw new IllegalArgumentException("unknown argument: " + args[i]
                        + " (usage: ColdStart --variant NAME=COMMAND... [--runs N])");
            }
        }
        if (variants.isEmpty()) {
            throw new IllegalArgumentException("give at least one --variant NAME=COMMAND");
        }
        Path dir = Files.createTempDirectory("memfas-coldstart");
        Path db = dir.resolve("memfas.db");
        List<String> first = variants.values().iterator().next();
        run(command(first, "remember", "billing-api deploys blue-green on Tuesdays.", "--db", db.toString()), null);
        run(command(first, "remember", "Kafka retention of usage-events is 30 days.", "--db", db.toString()), null);

        String[] measures = {"stats", "context (model)", "mcp initialize", "mcp first get_context",
            "mcp --http address", "mcp --http SIGTERM"};
        Map<String, double[][]> times = new LinkedHashMap<>();
        for (String v : variants.keySet()) {
            times.put(v, new double[measures.length][runs]);
        }
        for (int r = 0; r < runs; r++) {
            for (Map.Entry<String, List<String>> v : variants.entrySet()) {
                double[][] t = times.get(v.getKey());
                t[0][r] = run(command(v.getValue(), "stats", "--db", db.toString()), null);
                t[1][r] = run(command(v.getValue(), "context", "when do we deploy billing-api?", "--db",
                        db.toString()), null);
                double[] mcp = mcp(command(v.getValue(), "mcp", "--db", db.toString()));
                t[2][r] = mcp[0];
                t[3][r] = mcp[1];
                double[] http = http(command(v.getValue(), "mcp", "--http", "--port", "0", "--db", db.toString()));
                t[4][r] = http[0];
                t[5][r] = http[1];
            }
        }
        double[] jvm = new double[runs];
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (int r = 0; r < runs; r++) {
            jvm[r] = mcp(List.of(java, "-cp", System.getProperty("java.class.path"), Echo.class.getName()))[0];
        }
        System.out.printf(Locale.ROOT, "cold starts, median of %d runs, ms (%s)%n", runs,
                Runtime.version() + " running the harness");
        System.out.printf(Locale.ROOT, "%-24s", "");
        variants.keySet().forEach(v -> System.out.printf(Locale.ROOT, " %" + width(v) + "s", v));
        System.out.println();
        for (int m = 0; m < measures.length; m++) {
            System.out.printf(Locale.ROOT, "%-24s", measures[m]);
            for (String v : variants.keySet()) {
                System.out.printf(Locale.ROOT, " %" + width(v) + ".0f", median(times.get(v)[m]));
            }
            System.out.println();
        }
        System.out.printf(Locale.ROOT, "%-24s%14.0f  (the harness's JVM, answering the initialize line only)%n",
                "JVM alone", median(jvm));
    }

    /** A JVM that answers the first line with a reply to id 1 and the second with one to id 2, and does nothing else. */
    public static final class Echo {
        public static void main(String[] args) throws IOException {
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            in.readLine();
            System.out.println("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
            in.readLine();
            in.readLine();
            System.out.println("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}");
        }
    }

    /** The ms from start to the line saying the address, and from SIGTERM to the exit. */
    private static double[] http(List<String> command) throws IOException, InterruptedException {
        long start = System.nanoTime();
        Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        double[] t = new double[2];
        BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
        StringBuilder said = new StringBuilder();
        for (String line = err.readLine(); ; line = err.readLine()) {
            if (line == null) {
                throw new IllegalStateException(String.join(" ", command) + " exited without serving:\n" + said);
            }
            said.append(line).append('\n');
            if (line.contains("serving MCP at")) {
                break;
            }
        }
        t[0] = (System.nanoTime() - start) / 1e6;
        long stop = System.nanoTime();
        p.destroy(); // SIGTERM
        Thread drain = new Thread(() -> {
            try {
                err.transferTo(java.io.Writer.nullWriter());
            } catch (IOException e) {
                // the process is gone
            }
        });
        drain.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not exit within 60 s of SIGTERM");
        }
        t[1] = (System.nanoTime() - stop) / 1e6;
        drain.join();
        return t;
    }

    private static int width(String variant) {
        return Math.max(13, variant.length());
    }

    private static List<String> command(List<String> base, String... args) {
        List<String> c = new ArrayList<>(base);
        c.addAll(List.of(args));
        return c;
    }

    /** Runs a command to its end and returns its wall time in ms; fails if it fails. */
    private static double run(List<String> command, String input) throws IOException, InterruptedException {
        long start = System.nanoTime();
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (OutputStream in = p.getOutputStream()) {
            if (input != null) {
                in.write(input.getBytes(StandardCharsets.UTF_8));
            }
        }
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " failed:\n" + output);
        }
        return (System.nanoTime() - start) / 1e6;
    }

    /** The ms from start to the initialize reply, and to the first get_context reply. */
    private static double[] mcp(List<String> command) throws IOException, InterruptedException {
        long start = System.nanoTime();
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        double[] t = new double[2];
        try (OutputStream in = p.getOutputStream();
             BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                     StandardCharsets.UTF_8))) {
            in.write((INITIALIZE + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
            expect(out.readLine(), "\"id\":1", command);
            t[0] = (System.nanoTime() - start) / 1e6;
            in.write((INITIALIZED + "\n" + GET_CONTEXT + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
            expect(out.readLine(), "\"id\":2", command);
            t[1] = (System.nanoTime() - start) / 1e6;
        }
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not exit after its input closed");
        }
        return t;
    }

    private static void expect(String line, String id, List<String> command) {
        if (line == null || !line.contains(id)) {
            throw new IllegalStateException(String.join(" ", command) + ": expected the reply " + id + ", got "
                    + line);
        }
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
