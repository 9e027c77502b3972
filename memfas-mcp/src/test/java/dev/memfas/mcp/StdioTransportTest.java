package dev.memfas.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The stdio server under input no client should send: every line answered, the server reading on, a clean end. */
final class StdioTransportTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n"
            + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
    private static final String TOOLS_LIST = "{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"tools/list\",\"params\":{}}\n";

    private record Served(List<JsonNode> messages, byte[] bytes) {
        JsonNode withId(int id) {
            return messages.stream().filter(m -> m.path("id").asInt(-1) == id).findFirst()
                    .orElseThrow(() -> new AssertionError("no reply to " + id + " in " + messages));
        }

        List<JsonNode> withNullId() {
            return messages.stream().filter(m -> m.has("id") && m.get("id").isNull()).toList();
        }
    }

    private static Served serve(ContextCurator curator, String requests) throws Exception {
        InputStream in = new ByteArrayInputStream(requests.getBytes(StandardCharsets.UTF_8));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (MemfasMcpServer server = MemfasMcpServer.builder(curator).input(in).output(out).build()) {
            assertThat(server.awaitClientExit(60, TimeUnit.SECONDS)).as("the server saw the end of its input").isTrue();
        }
        List<JsonNode> messages = new ArrayList<>();
        byte[] bytes = out.toByteArray();
        for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) {
                messages.add(JSON.readTree(line));
            }
        }
        return new Served(messages, bytes);
    }

    @Test
    void aLineThatIsNotJson_isAnsweredWithAParseError_andTheNextRequestIsServed() throws Exception {
        try (ContextCurator curator = Memfas.newBuilder().build()) {
            Served s = serve(curator, INITIALIZE + "not json\n" + TOOLS_LIST);

            assertThat(s.withNullId()).singleElement().satisfies(e -> {
                assertThat(e.at("/error/code").asInt()).isEqualTo(-32700);
                assertThat(e.at("/error/message").asString()).startsWith("not JSON");
            });
            assertThat(s.withId(99).at("/result/tools").size()).isEqualTo(5);
        }
    }

    @Test
    void aBatch_anObjectId_andOtherMalformedMessages_areEachRefused_andTheServerReadsOn() throws Exception {
        String bad = "[{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\"}]\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"tools/list\"}\n"
                + "42\n"
                + "{\"jsonrpc\":\"1.0\",\"id\":6,\"method\":\"tools/list\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":17}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/list\",\"params\":[1,2]}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"recall\","
                + "\"arguments\":\"query=deploys\"}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/call\",\"params\":{\"name\":\"recall\","
                + "\"arguments\":[\"deploys\"]}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":11}\n"
                + "\n   \n";
        try (ContextCurator curator = Memfas.newBuilder().build()) {
            Served s = serve(curator, INITIALIZE + bad + TOOLS_LIST);

            assertThat(s.withNullId()).hasSize(3).allSatisfy(e -> assertThat(e.at("/error/code").asInt())
                    .isEqualTo(-32600));
            assertThat(s.withNullId().get(0).at("/error/message").asString()).contains("batches are not served");
            assertThat(s.withNullId().get(1).at("/error/message").asString()).contains("id must be a string");
            for (int id : new int[] {6, 7, 8, 11}) {
                assertThat(s.withId(id).at("/error/code").asInt()).as("id " + id).isEqualTo(-32600);
            }
            for (int id : new int[] {9, 10}) {
                assertThat(s.withId(id).at("/error/code").asInt()).as("id " + id).isEqualTo(-32602);
                assertThat(s.withId(id).at("/error/message").asString()).contains("arguments must be an object");
            }
            assertThat(s.withId(99).at("/result/tools").size()).isEqualTo(5);
            assertThat(s.messages()).allSatisfy(m -> {
                assertThat(m.get("jsonrpc").asString()).isEqualTo("2.0");
                assertThat(m.toString()).doesNotContain("Exception").doesNotContain("\tat ");
            });
        }
    }

    @Test
    void aLineOverTheLimit_isRefused_andTheNextIsServed_evenAsTheLastLine() throws Exception {
        String huge = "x".repeat(StdioTransport.MAX_LINE_BYTES + 1);
        try (ContextCurator curator = Memfas.newBuilder().build()) {
            Served s = serve(curator, INITIALIZE + huge + "\n" + TOOLS_LIST + huge);

            assertThat(s.withNullId()).hasSize(2).allSatisfy(e -> assertThat(e.at("/error/message").asString())
                    .isEqualTo("a message longer than " + StdioTransport.MAX_LINE_BYTES + " bytes is not read"));
            assertThat(s.withId(99).at("/result/tools").size()).isEqualTo(5);
        }
    }

    @Test
    void aLoneSurrogateInStoredText_goesOutAsWellFormedUtf8() throws Exception {
        try (ContextCurator curator = Memfas.newBuilder().build()) {
            curator.remember(Memory.builder("Deploys happen on Tuesdays \uD800 after the standup.").id("m1").build());
            String call = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"recall\","
                    + "\"arguments\":{\"query\":\"when do deploys happen\"}}}\n";

            Served s = serve(curator, INITIALIZE + call);

            assertThat(ServedCurator.strictUtf8(s.bytes())).as("decodes as strict UTF-8").isTrue();
            assertThat(s.withId(2).toString()).contains("Tuesdays \uFFFD after");
        }
    }

    @Test
    void aClientThatNeverClosesItsInput_stillGetsEachReply_whileTheServerWaits() throws Exception {
        PipedOutputStream client = new PipedOutputStream();
        PipedInputStream serverIn = new PipedInputStream(client, 1 << 16);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ContextCurator curator = Memfas.newBuilder().build();
                MemfasMcpServer server = MemfasMcpServer.builder(curator).input(serverIn).output(out).build()) {
            client.write((INITIALIZE + "{oops\n" + TOOLS_LIST).getBytes(StandardCharsets.UTF_8));
            client.flush();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!out.toString(StandardCharsets.UTF_8).contains("\"id\":99") && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(out.toString(StandardCharsets.UTF_8)).contains("\"id\":99").contains("-32700");
            assertThat(server.awaitClientExit(50, TimeUnit.MILLISECONDS)).as("input still open").isFalse();

            client.close();
            assertThat(server.awaitClientExit(30, TimeUnit.SECONDS)).as("input closed").isTrue();
        }
    }
}
