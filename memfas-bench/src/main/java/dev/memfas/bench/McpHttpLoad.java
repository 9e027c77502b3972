package dev.memfas.bench;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.Memory;
import dev.memfas.RecallRequest;
import dev.memfas.core.Memfas;
import dev.memfas.djl.DjlEmbedder;
import dev.memfas.mcp.MemfasMcpHttpServer;
import dev.memfas.sqlite.SqliteMemoryStore;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * A bounded load on {@code memfas mcp --http}'s server, on loopback: C clients of the MCP Java SDK, each in its own
 * thread, call a mix of tools for S seconds (get_context 60%, recall 15%, remember 15%, report_usage 10%) against a
 * SQLite store of N memories with the default model. Then the same mix, the same threads, calls the curator in
 * process, as the baseline the transport's cost is read against. Prints calls, errors and p50 / p95 / p99 per tool for
 * both, and the ratios.
 *
 * <pre>
 * java -cp memfas-bench/target/benchmarks.jar dev.memfas.bench.McpHttpLoad --clients 8 --seconds 120
 * </pre>
 */
public final class McpHttpLoad {
    private static final List<String> QUERIES = List.of("how do we deploy billing?", "what is the kafka retention?",
            "who reviews schema migrations?", "why was the invoice wrong?", "how do refunds handle currency?",
            "what broke the grafana dashboard?", "when do we roll back a release?");
    private static final List<String> TOOLS = List.of("get_context", "recall", "remember", "report_usage");

    private McpHttpLoad() {}

    public static void main(String[] args) throws Exception {
        int clients = 8;
        int seconds = 120;
        int memories = 10_000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--clients" -> clients = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--memories" -> memories = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument: " + args[i]
                        + " (usage: McpHttpLoad [--clients C] [--seconds S] [--memories N])");
            }
        }
        Path db = Files.createTempDirectory("memfas-mcp-load").resolve("memfas.db");
        FirstTurn.fill(db, memories);
        try (DjlEmbedder embedder = DjlEmbedder.defaultModel();
             ContextCurator curator = Memfas.newBuilder().store(SqliteMemoryStore.open(db)).embedder(embedder)
                     .warmUp(true).build();
             MemfasMcpHttpServer server = MemfasMcpHttpServer.builder(curator).port(0).build()) {
            System.out.printf(Locale.ROOT, "%d clients, %d s each way, %d memories, %s%n", clients, seconds, memories,
                    server.uri());
            // Both ways warm up for a tenth of the time first, so neither pays the JIT for the other.
            Result http = run(clients, seconds, (client, calls) -> overHttp(server, client, calls));
            Result direct = run(clients, seconds, (client, calls) -> inProcess(curator, client, calls));
            print("over HTTP", http);
            print("in process", direct);
            for (String tool : TOOLS) {
                System.out.printf(Locale.ROOT, "%-13s p50 ratio %.2f, p95 ratio %.2f%n", tool,
                        http.percentile(tool, 50) / direct.percentile(tool, 50),
                        http.percentile(tool, 95) / direct.percentile(tool, 95));
            }
        }
    }

    /** What one client does: calls tools until told to stop, recording each call's time under its tool. */
    private interface ClientLoop {
        void run(int client, Calls calls) throws Exception;
    }

    private static Result run(int clients, int seconds, ClientLoop loop) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            Calls warm = new Calls(System.nanoTime() + Duration.ofSeconds(Math.max(1, seconds / 10)).toNanos());
            awaitAll(pool, clients, loop, warm);
            Calls measured = new Calls(System.nanoTime() + Duration.ofSeconds(seconds).toNanos());
            awaitAll(pool, clients, loop, measured);
            return measured.result();
        } finally {
            pool.shutdownNow();
        }
    }

    private static void awaitAll(ExecutorService pool, int clients, ClientLoop loop, Calls calls) throws Exception {
        List<Future<?>> running = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            int client = c;
            running.add(pool.submit(() -> {
                loop.run(client, calls);
                return null;
            }));
        }
        for (Future<?> f : running) {
            f.get();
        }
    }

    private static void overHttp(MemfasMcpHttpServer server, int client, Calls calls) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder("http://127.0.0.1:"
                + server.port()).endpoint(MemfasMcpHttpServer.ENDPOINT).build();
        try (McpSyncClient mcp = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build()) {
            mcp.initialize();
            mix(client, calls, (tool, arguments) -> {
                McpSchema.CallToolResult r = mcp.callTool(McpSchema.CallToolRequest.builder(tool)
                        .arguments(arguments).build());
                if (Boolean.TRUE.equals(r.isError())) {
                    throw new IllegalStateException(tool + ": " + ((McpSchema.TextContent) r.content().get(0)).text());
                }
            });
        }
    }

    private static void inProcess(ContextCurator curator, int client, Calls calls) {
        mix(client, calls, (tool, a) -> {
            switch (tool) {
                case "get_context" -> curator.getContext(ContextRequest.builder((String) a.get("query"))
                        .sessionId((String) a.get("session_id")).tokenBudget(1_000).build());
                case "recall" -> curator.recall(RecallRequest.builder((String) a.get("query")).limit(10).build());
                case "remember" -> curator.remember(Memory.builder((String) a.get("text")).build());
                case "report_usage" -> curator.upkeep()
                        .reportUsage(Memory.DEFAULT_NAMESPACE, (String) a.get("session_id"),
                        castList(a.get("memory_ids")), true);
                default -> throw new IllegalArgumentException(tool);
            }
        });
    }

    @SuppressWarnings("unchecked")
    private static List<String> castList(Object o) {
        return (List<String>) o;
    }

    /** The mix, the same for both ways: each client draws its calls from its own seeded random. */
    private static void mix(int client, Calls calls, BiConsumer<String, Map<String, Object>> call) {
        Random random = new Random(client);
        String session = "client-" + client;
        int n = 0;
        while (System.nanoTime() < calls.deadline) {
            int draw = random.nextInt(100);
            String query = QUERIES.get(random.nextInt(QUERIES.size()));
            String tool;
            Map<String, Object> arguments;
            if (draw < 60) {
                tool = "get_context";
                arguments = Map.of("query", query, "session_id", session, "token_budget", 1_000);
            } else if (draw < 75) {
                tool = "recall";
                arguments = Map.of("query", query, "limit", 10);
            } else if (draw < 90) {
                tool = "remember";
                arguments = Map.of("text", "Client " + client + " noted, call " + (n++) + ": " + query);
            } else {
                tool = "report_usage";
                arguments = Map.of("session_id", session, "memory_ids", List.of("m" + random.nextInt(1_000)));
            }
            long start = System.nanoTime();
            try {
                call.accept(tool, arguments);
                calls.record(tool, System.nanoTime() - start);
            } catch (RuntimeException e) {
                calls.failed(tool, e);
            }
        }
    }

    /** The calls of one run: their times per tool, and the errors. */
    private static final class Calls {
        final long deadline;
        final Map<String, List<Long>> nanos = new ConcurrentHashMap<>();
        final AtomicLong errors = new AtomicLong();
        volatile String firstError;

        Calls(long deadline) {
            this.deadline = deadline;
        }

        void record(String tool, long took) {
            List<Long> times = nanos.computeIfAbsent(tool, t -> new ArrayList<>());
            synchronized (times) {
                times.add(took);
            }
        }

        void failed(String tool, RuntimeException e) {
            if (errors.getAndIncrement() == 0) {
                firstError = tool + ": " + e;
            }
        }

        Result result() {
            return new Result(nanos, errors.get(), firstError);
        }
    }

    private record Result(Map<String, List<Long>> nanos, long errors, String firstError) {
        long calls() {
            return nanos.values().stream().mapToLong(List::size).sum();
        }

        double percentile(String tool, int p) {
            long[] sorted = nanos.getOrDefault(tool, List.of()).stream().mapToLong(Long::longValue).sorted().toArray();
            if (sorted.length == 0) {
                return Double.NaN;
            }
            return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)] / 1e6;
        }
    }

    private static void print(String way, Result r) {
        System.out.printf(Locale.ROOT, "%s: %d calls, %d errors%s%n", way, r.calls(), r.errors(),
                r.firstError() == null ? "" : " (first: " + r.firstError() + ")");
        for (String tool : TOOLS) {
            System.out.printf(Locale.ROOT, "  %-13s %6d calls  p50 %7.2f ms  p95 %7.2f ms  p99 %7.2f ms%n", tool,
                    r.nanos().getOrDefault(tool, List.of()).size(), r.percentile(tool, 50), r.percentile(tool, 95),
                    r.percentile(tool, 99));
        }
        long[] all = r.nanos().values().stream().flatMap(List::stream).mapToLong(Long::longValue).sorted().toArray();
        if (all.length > 0) {
            System.out.printf(Locale.ROOT, "  all           %6d calls  p50 %7.2f ms  p95 %7.2f ms%n", all.length,
                    all[(int) Math.ceil(0.5 * all.length) - 1] / 1e6,
                            all[(int) Math.ceil(0.95 * all.length) - 1] / 1e6);
        }
    }
}
