package dev.memfas.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.core.Memfas;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The HTTP server driven by the MCP Java SDK's own Streamable HTTP client, on loopback. */
final class MemfasMcpHttpServerTest extends ServedCurator {
    private static final String TOKEN = "s3cret-token-0123456789";


    private McpSyncClient client(MemfasMcpHttpServer server, String token) {
        URI uri = server.uri();
        HttpClientStreamableHttpTransport.Builder transport = HttpClientStreamableHttpTransport
                .builder("http://" + uri.getHost() + ":" + uri.getPort()).endpoint(uri.getPath());
        if (token != null) {
            transport.requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token));
        }
        McpSyncClient client = McpClient.sync(transport.build()).requestTimeout(Duration.ofSeconds(20)).build();
        opened.add(client);
        client.initialize();
        return client;
    }

    private static McpSchema.CallToolResult call(McpSyncClient client, String tool, Map<String, Object> args) {
        return client.callTool(McpSchema.CallToolRequest.builder(tool).arguments(args).build());
    }

    private static String text(McpSchema.CallToolResult r) {
        return ((McpSchema.TextContent) r.content().get(0)).text();
    }

    @Test
    void twoClientsShareOneCurator_whatOneRemembersTheOtherFinds() {
        MemfasMcpHttpServer server = serve(MemfasMcpHttpServer.builder(curator).tools("full"));
        McpSyncClient alice = client(server, null);
        McpSyncClient bob = client(server, null);

        assertThat(server.uri().toString()).startsWith("http://127.0.0.1:").endsWith("/mcp");
        assertThat(alice.listTools().tools()).extracting(McpSchema.Tool::name).contains("get_context", "remember");
        McpSchema.CallToolResult remembered = call(alice, "remember",
                Map.of("text", "The staging database password rotates every 90 days.", "id", "rotation"));
        assertThat(remembered.isError()).as(text(remembered)).isFalse();

        McpSchema.CallToolResult context = call(bob, "get_context",
                Map.of("query", "when does the staging password rotate", "session_id", "bob-1"));
        assertThat(context.isError()).as(text(context)).isFalse();
        assertThat(text(context)).containsPattern("<memory id=\"rotation\"|\\n\\[rotation\\] ")
                .contains("rotates every 90 days");
    }

    @Test
    void sessionsOfDifferentClientsStayIsolated_evenUnderTheSameName() {
        curator.remember(dev.memfas.Memory.builder("Kafka retention is seven days, and the billing service"
                + " deploys with blue-green on Fridays after the change review.").id("k").build());
        MemfasMcpHttpServer server = serve(MemfasMcpHttpServer.builder(curator).tools("full"));
        McpSyncClient alice = client(server, null);
        McpSyncClient bob = client(server, null);

        Object serverDefault = structured(call(bob, "get_context", Map.of("query", "kafka"))).get("token_budget");

        // Alice's scratch note in her session "work" is not in Bob's session of the same name.
        McpSchema.CallToolResult scratch = call(alice, "remember", Map.of("text", "Scratch: try the canary first.",
                "tags", List.of("temp"), "session_id", "work"));
        assertThat(scratch.isError()).as(text(scratch)).isFalse();
        assertThat(structured(call(alice, "working_memory", Map.of("session_id", "work"))).get("memories"))
                .asList().hasSize(1);
        assertThat(structured(call(bob, "working_memory", Map.of("session_id", "work"))).get("memories"))
                .asList().isEmpty();

        // A budget Alice sets, for her session or as her default, leaves Bob's turns at the server's default.
        McpSchema.CallToolResult set = call(alice, "set_budget", Map.of("token_budget", 5, "session_id", "work"));
        assertThat(text(set)).isEqualTo("size of session work set to 5 tokens");
        assertThat(text(call(alice, "set_budget", Map.of("token_budget", 7))))
                .isEqualTo("default size of this client set to 7 tokens");
        assertThat(structured(call(alice, "get_context", Map.of("query", "kafka", "session_id", "work")))
                .get("token_budget")).isEqualTo(5);
        assertThat(structured(call(alice, "get_context", Map.of("query", "kafka"))).get("token_budget")).isEqualTo(7);
        assertThat(structured(call(bob, "get_context", Map.of("query", "kafka", "session_id", "work")))
                .get("token_budget")).isEqualTo(serverDefault);
        assertThat(structured(call(bob, "get_context", Map.of("query", "kafka"))).get("token_budget"))
                .isEqualTo(serverDefault);

        // Usage is reported back under the name the client gave.
        McpSchema.CallToolResult usage = call(bob, "report_usage",
                Map.of("session_id", "work", "memory_ids", List.of("k")));
        assertThat(text(usage)).isEqualTo("recorded 1 memory as helpful in session work");
    }

    @Test
    void withABearerToken_requestsWithoutItOrWithAnotherAreRefused() throws Exception {
        MemfasMcpHttpServer server = serve(MemfasMcpHttpServer.builder(curator).bearerToken(TOKEN));

        McpSyncClient good = client(server, TOKEN);
        assertThat(call(good, "recall", Map.of("query", "kafka")).isError()).isFalse();

        assertThat(post(server, null, null).statusCode()).isEqualTo(401);
        HttpResponse<String> wrong = post(server, "Bearer " + TOKEN + "x", null);
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"memfas\"");
        assertThat(wrong.body()).contains("wrong bearer token").doesNotContain(TOKEN);
        assertThatThrownBy(() -> client(server, "not-the-token-at-all")).isInstanceOf(RuntimeException.class);
    }

    @Test
    void aRequestFromAWebPageOfAnotherSite_isRefused() throws Exception {
        MemfasMcpHttpServer server = serve(MemfasMcpHttpServer.builder(curator));

        HttpResponse<String> evil = post(server, null, "http://attacker.example");
        assertThat(evil.statusCode()).isEqualTo(403);
        assertThat(evil.body()).contains("Origin http://attacker.example");
        // Nor does a page served from another port of this machine; only the server's own origin may call it.
        assertThat(post(server, null, "http://localhost:3000").statusCode()).isEqualTo(403);
        assertThat(post(server, null, "http://localhost:" + server.port()).statusCode()).isNotIn(401, 403);
    }

    @Test
    void offLoopback_aTokenIsRequired_andBadOptionsFailClearly() throws Exception {
        assertThatThrownBy(() -> MemfasMcpHttpServer.builder(curator).host("0.0.0.0").build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("serving MCP on 0.0.0.0, not a loopback address, needs a bearer token");
        assertThatThrownBy(() -> MemfasMcpHttpServer.builder(curator).bearerToken("short"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bearer token must have at least 16 characters: it has 5");
        assertThatThrownBy(() -> MemfasMcpHttpServer.builder(curator).bearerToken("has a space in it, see"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageNotContaining("see");
        assertThatThrownBy(() -> MemfasMcpHttpServer.builder(curator).port(70_000))
                .hasMessage("port must be in [0, 65535]: 70000");
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> MemfasMcpHttpServer.builder(curator).port(taken.getLocalPort()).build())
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("cannot serve MCP on 127.0.0.1:" + taken.getLocalPort());
        }
    }

    @Test
    void close_stopsServing_andReleasesTheWaiter() throws Exception {
        MemfasMcpHttpServer server = MemfasMcpHttpServer.builder(curator).port(0).build();
        URI uri = server.uri();
        server.close();
        server.close();
        assertThat(server.awaitStop(1, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(() -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri)
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(java.io.IOException.class);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> structured(McpSchema.CallToolResult r) {
        assertThat(r.isError()).as(text(r)).isFalse();
        return (Map<String, Object>) r.structuredContent();
    }

    /** An initialize request, as raw HTTP, with the given Authorization and Origin headers (each may be null). */
    private static HttpResponse<String> post(MemfasMcpHttpServer server, String authorization, String origin)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.uri())
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                        + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}"));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        if (origin != null) {
            request.header("Origin", origin);
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void close_answersTheCallInProgress_thenRefusesNewOnes_withinFiveSeconds() throws Exception {
        java.util.concurrent.CountDownLatch embedding = new java.util.concurrent.CountDownLatch(1);
        // An embedder that takes a second over the query "slow", so that a call is in progress when the server stops.
        dev.memfas.spi.Embedder slow = new dev.memfas.spi.Embedder() {
            @Override
            public List<float[]> embedAll(List<String> texts) {
                if (texts.stream().anyMatch(t -> t.contains("slow"))) {
                    embedding.countDown();
                    try {
                        Thread.sleep(1_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return texts.stream().map(t -> new float[] {1f, (float) t.length()}).toList();
            }

            @Override
            public int dimension() {
                return 2;
            }

            @Override
            public String modelId() {
                return "slow-test";
            }
        };
        try (ContextCurator slowCurator = Memfas.newBuilder().embedder(slow).build()) {
            slowCurator.remember(dev.memfas.Memory.builder("Deploys go out on Tuesdays.").build());
            MemfasMcpHttpServer server = serve(MemfasMcpHttpServer.builder(slowCurator));
            McpSyncClient client = client(server, null);
            // The call blocks a thread of its own: on a two-core machine the common pool has a single worker, which
            // the SDK's client also needs to read the reply (JDK 25 runs supplyAsync there; JDK 17 a new thread).
            java.util.concurrent.ExecutorService caller = java.util.concurrent.Executors.newSingleThreadExecutor();
            opened.add(caller::shutdownNow);
            java.util.concurrent.Future<McpSchema.CallToolResult> inProgress =
                    caller.submit(() -> call(client, "recall", Map.of("query", "slow")));
            assertThat(embedding.await(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

            long start = System.nanoTime();
            Thread stopping = new Thread(server::close);
            stopping.start();
            Thread.sleep(200);
            HttpResponse<String> late = post(server, null, null);
            stopping.join();
            long tookMillis = (System.nanoTime() - start) / 1_000_000;

            assertThat(inProgress.get(20, java.util.concurrent.TimeUnit.SECONDS).isError()).isFalse();
            assertThat(late.statusCode()).isEqualTo(503);
            assertThat(late.body()).contains("the server is stopping");
            assertThat(tookMillis).isLessThan(5_000);
        }
    }
}
