package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.core.Memfas;
import dev.memfas.mcp.MemfasMcpServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

final class EarlyHandshakeTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static String initialize(String id, String protocolVersion) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
                + protocolVersion + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n";
    }

    private static InputStream input(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    /** What a server writes for the given input, once the input ends and every reply is written. */
    private static List<JsonNode> serve(InputStream in, ByteArrayOutputStream out, EarlyHandshake handshake)
            throws Exception {
        try (ContextCurator curator = Memfas.newBuilder().build()) {
            MemfasMcpServer.Builder b = MemfasMcpServer.builder(curator).version(Main.VERSION);
            b = handshake == null ? b.input(in).output(out) : b.input(handshake.serverInput())
                    .output(handshake.serverOutput());
            try (MemfasMcpServer server = b.build()) {
                assertThat(server.awaitClientExit(60, TimeUnit.SECONDS)).isTrue();
            }
        }
        List<JsonNode> messages = new ArrayList<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) {
                messages.add(JSON.readTree(line));
            }
        }
        return messages;
    }

    @Test
    void earlyAnswer_isTheServersOwn_forEveryProtocolVersion_andAnUnknownOne() throws Exception {
        for (String version : List.of("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "1999-01-01")) {
            for (String id : List.of("7", "\"a-1\"")) {
                List<JsonNode> sdk = serve(input(initialize(id, version)), new ByteArrayOutputStream(), null);
                ByteArrayOutputStream early = new ByteArrayOutputStream();
                EarlyHandshake.start(input(initialize(id, version)), early, Main.VERSION).serverInput().readAllBytes();

                assertThat(sdk).hasSize(1);
                assertThat(JSON.readTree(early.toString(StandardCharsets.UTF_8))).as(version + " " + id)
                        .isEqualTo(sdk.get(0));
            }
        }
    }

    @Test
    void withTheServer_theClientGetsOneAnswerToEachRequest_andTheSessionWorks() throws Exception {
        String requests = initialize("1", "2025-06-18")
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"recall\","
                + "\"arguments\":{\"query\":\"deploys\"}}}\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        List<JsonNode> messages = serve(null, out, EarlyHandshake.start(input(requests), out, Main.VERSION));

        assertThat(messages).extracting(m -> m.get("id").asInt()).containsExactly(1, 2, 3);
        assertThat(messages.get(0).at("/result/serverInfo/name").asString()).isEqualTo("memfas");
        assertThat(messages.get(1).at("/result/tools").size()).isEqualTo(5);
        assertThat(messages.get(2).at("/result/isError").asBoolean()).isFalse();
    }

    @Test
    void aFirstLineThatIsNotInitialize_isLeftToTheServer() throws Exception {
        String requests = "not json\n" + initialize("1", "2025-06-18");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        EarlyHandshake handshake = EarlyHandshake.start(input(requests), out, Main.VERSION);
        InputStream forServer = handshake.serverInput();

        assertThat(out.size()).isZero();
        assertThat(new String(forServer.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(requests);
    }
}
