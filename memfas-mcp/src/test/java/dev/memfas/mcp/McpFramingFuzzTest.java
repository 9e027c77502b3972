package dev.memfas.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.SequenceInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a client writes to either transport, fuzzed: a stdio server given any bytes between a real handshake and a last
 * request, and an HTTP server given any body. Neither may hang, die or answer with anything but JSON-RPC.
 *
 * <p>{@code JAZZER_FUZZ=1 ./mvnw -B -pl memfas-mcp test -Dtest='McpFramingFuzzTest#stdio'} (or {@code #http}) fuzzes it
 * for real (docs/fuzzing.md).
 */
final class McpFramingFuzzTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\","
            + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"fuzz\",\"version\":\"1\"}}}";
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
    private static final String LAST = "{\"jsonrpc\":\"2.0\",\"id\":\"last\",\"method\":\"tools/list\"}";
    private static final ContextCurator CURATOR = Memfas.newBuilder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static MemfasMcpHttpServer server;
    private static String session;

    static {
        CURATOR.remember(Memory.builder("Deploys go out on Tuesdays.").id("m1").build());
    }

    @FuzzTest(maxDuration = "2m")
    void stdio(byte[] input) throws Exception {
        byte[] before = (INITIALIZE + "\n" + INITIALIZED + "\n").getBytes(StandardCharsets.UTF_8);
        // The fuzzed bytes end their own line, so that the last request is a line of its own.
        byte[] after = ("\n" + LAST + "\n").getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (MemfasMcpServer stdio = MemfasMcpServer.builder(CURATOR).input(new SequenceInputStream(
                new SequenceInputStream(new ByteArrayInputStream(before), new ByteArrayInputStream(input)),
                new ByteArrayInputStream(after))).output(out).build()) {
            assertThat(stdio.awaitClientExit(30, TimeUnit.SECONDS)).as("the server saw the end of its input").isTrue();
        }

        boolean lastAnswered = false;
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            JsonNode message = JSON.readTree(line);
            assertThat(message.path("jsonrpc").asString("")).as(line).isEqualTo("2.0");
            assertThat(message.has("result") || message.has("error") || message.has("method")).as(line).isTrue();
            lastAnswered |= "last".equals(message.path("id").asString(""));
        }
        assertThat(lastAnswered).as("the request after the fuzzed bytes was answered").isTrue();
    }

    @FuzzTest(maxDuration = "2m")
    void http(byte[] body) throws Exception {
        startServer();
        HttpResponse<String> r = HTTP.send(request().POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(r.statusCode()).as(r.body()).isIn(200, 202, 400, 404, 413);
        if (r.statusCode() != 202) {
            JsonNode message = message(r.body());
            assertThat(message.path("jsonrpc").asString("")).as(r.body()).isEqualTo("2.0");
            assertThat(message.has("result") || message.has("error")).as(r.body()).isTrue();
            assertThat(r.statusCode() < 300 || message.has("error")).as(r.body()).isTrue();
        }
        HttpResponse<String> last = HTTP.send(request().POST(HttpRequest.BodyPublishers.ofString(LAST)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(message(last.body()).at("/result/tools").isArray()).as("still serving: " + last.body()).isTrue();
    }

    private static synchronized void startServer() throws Exception {
        if (server != null) {
            return;
        }
        server = MemfasMcpHttpServer.builder(CURATOR).port(0).build();
        HttpResponse<String> init = HTTP.send(request().POST(HttpRequest.BodyPublishers.ofString(INITIALIZE)).build(),
                HttpResponse.BodyHandlers.ofString());
        session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        HTTP.send(request().POST(HttpRequest.BodyPublishers.ofString(INITIALIZED)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request() {
        URI uri = server.uri();
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream");
        return session == null ? b : b.header("Mcp-Session-Id", session);
    }

    /** The JSON-RPC message of a reply: plain JSON, or the data of its server-sent event. */
    private static JsonNode message(String body) {
        if (body.startsWith("{")) {
            return JSON.readTree(body);
        }
        String data = body.lines().filter(l -> l.startsWith("data:")).findFirst()
                .orElseThrow(() -> new AssertionError("neither JSON nor an event: " + body)).substring(5).trim();
        return JSON.readTree(data);
    }
}
