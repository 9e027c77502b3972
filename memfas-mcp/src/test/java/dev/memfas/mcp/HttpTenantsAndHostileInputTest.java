package dev.memfas.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.Memory;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The HTTP server under callers it must not trust: other sites, other tenants, malformed JSON-RPC. Raw HTTP over a
 * socket, so that every header, the Host included, is exactly what a hostile caller would send.
 */
final class HttpTenantsAndHostileInputTest extends ServedCurator {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String TOKEN_A = "team-a-token-0123456789";
    private static final String TOKEN_OPS = "ops-token-abcdefghijklmnop";
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";

    @TempDir
    Path dir;


    /** One HTTP exchange, as raw bytes. */
    private record Reply(int status, String headers, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** The JSON-RPC message of the body: plain JSON, or the data of its one server-sent event. */
        JsonNode message() {
            String text = text();
            if (text.startsWith("{")) {
                return JSON.readTree(text);
            }
            String data = text.lines().filter(l -> l.startsWith("data:")).findFirst()
                    .orElseThrow(() -> new AssertionError("no message in " + text)).substring(5).trim();
            return JSON.readTree(data);
        }

        String header(String name) {
            return headers.lines().filter(l -> l.regionMatches(true, 0, name + ":", 0, name.length() + 1))
                    .map(l -> l.substring(name.length() + 1).trim()).findFirst().orElse(null);
        }
    }

    private static Reply post(MemfasMcpHttpServer server, String body, String... headers) throws Exception {
        return exchange(server, "POST", body, headers);
    }

    private static Reply exchange(MemfasMcpHttpServer server, String method, String body, String... headers)
            throws Exception {
        byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(method + " /mcp HTTP/1.1\r\n");
        boolean host = false;
        for (String h : headers) {
            host |= h.regionMatches(true, 0, "Host:", 0, 5);
            head.append(h).append("\r\n");
        }
        if (!host) {
            head.append("Host: 127.0.0.1:").append(server.port()).append("\r\n");
        }
        head.append("Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n")
                .append("Connection: close\r\nContent-Length: ").append(content.length).append("\r\n\r\n");
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(content);
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] all = in.readAllBytes();
            String text = new String(all, StandardCharsets.ISO_8859_1);
            int split = text.indexOf("\r\n\r\n");
            String headerText = text.substring(0, split);
            int status = Integer.parseInt(headerText.split(" ")[1]);
            byte[] rest = java.util.Arrays.copyOfRange(all, split + 4, all.length);
            return new Reply(status, headerText, dechunk(headerText, rest));
        }
    }

    private static byte[] dechunk(String headers, byte[] body) {
        if (!headers.toLowerCase().contains("transfer-encoding: chunked")) {
            return body;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int i = 0;
        while (i < body.length) {
            int eol = i;
            while (body[eol] != '\r') {
                eol++;
            }
            int size = Integer.parseInt(new String(body, i, eol - i, StandardCharsets.ISO_8859_1).trim(), 16);
            if (size == 0) {
                break;
            }
            out.write(body, eol + 2, size);
            i = eol + 2 + size + 2;
        }
        return out.toByteArray();
    }

    /** Opens an MCP session and returns its id. */
    private static String initialize(MemfasMcpHttpServer server, String... headers) throws Exception {
        Reply r = post(server, INITIALIZE, headers);
        assertThat(r.status()).as(r.text()).isEqualTo(200);
        String session = r.header("Mcp-Session-Id");
        post(server, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                with(headers, "Mcp-Session-Id: " + session));
        return session;
    }

    private static String[] with(String[] headers, String extra) {
        String[] all = java.util.Arrays.copyOf(headers, headers.length + 1);
        all[headers.length] = extra;
        return all;
    }

    private static String callTool(String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + "}}";
    }

    private static void assertJsonRpcError(Reply r, int status, int code, String message) {
        assertThat(r.status()).as(r.text()).isEqualTo(status);
        JsonNode m = r.message();
        assertThat(m.get("jsonrpc").asString()).isEqualTo("2.0");
        assertThat(m.has("id")).as("JSON-RPC errors carry an id, null when unknown: " + m).isTrue();
        assertThat(m.at("/error/code").asInt()).as(m.toString()).isEqualTo(code);
        assertThat(m.at("/error/message").asString()).contains(message);
        assertThat(r.text()).doesNotContain("Exception").doesNotContain("stackTrace").doesNotContain("<html");
    }

    @Test
    void aHostOtherThanTheLoopbackServed_isRefused_soDnsRebindingGetsNothing() throws Exception {
        MemfasMcpHttpServer server = serve(MemfasMcpHttpServer.builder(curator));

        assertJsonRpcError(post(server, INITIALIZE, "Host: evil.example"), 403, -32001, "loopback address only");
        assertJsonRpcError(post(server, INITIALIZE, "Host: evil.example:" + server.port()), 403, -32001, "Host");
        assertJsonRpcError(post(server, INITIALIZE, "Host: localhost:1"), 403, -32001, "Host");
        assertThat(post(server, INITIALIZE, "Host: localhost:" + server.port()).status()).isEqualTo(200);
        assertThat(post(server, INITIALIZE, "Host: [::1]:" + server.port()).status()).isEqualTo(200);
        assertJsonRpcError(post(server, INITIALIZE, "Origin: http://localhost:9999"), 403, -32001, "Origin");
        assertJsonRpcError(post(server, INITIALIZE, "Origin: null"), 403, -32001, "Origin");
    }

    @Test
    void withoutTokens_oneNamespaceIsServed_andACallNamingAnotherIsRefused() throws Exception {
        curator.remember(Memory.builder("Tenant two keeps its secrets here.").namespace("two").id("s").build());
        MemfasMcpHttpServer server = serve(MemfasMcpHttpServer.builder(curator));
        String session = initialize(server);

        Reply other = post(server, callTool("recall", "{\"query\":\"secrets\",\"namespace\":\"two\"}"),
                "Mcp-Session-Id: " + session);
        assertThat(other.message().at("/result/isError").asBoolean()).isTrue();
        assertThat(other.text()).contains("this server serves the namespace 'default' only, not 'two'")
                .doesNotContain("keeps its secrets");
        Reply forget = post(server, callTool("forget", "{\"id\":\"s\",\"namespace\":\"two\"}"),
                "Mcp-Session-Id: " + session);
        assertThat(forget.message().at("/result/isError").asBoolean()).isTrue();
        assertThat(curator.get("two", "s")).isPresent();
        Reply blank = post(server, callTool("recall", "{\"query\":\"secrets\",\"namespace\":\" \"}"),
                "Mcp-Session-Id: " + session);
        assertThat(blank.text()).contains("argument 'namespace' must not be blank");
    }

    @Test
    void withATokenFile_eachTokenWorksInItsNamespaces_andAnotherTokensSessionIsUnknownToIt() throws Exception {
        curator.remember(Memory.builder("Ops rotates the pager on Mondays.").namespace("ops").id("p").build());
        curator.remember(Memory.builder("Team A deploys on Tuesdays.").namespace("team-a").id("d").build());
        Path tokens = dir.resolve("tokens");
        Files.writeString(tokens, "# clients\n" + TOKEN_A + "   team-a\n\n" + TOKEN_OPS + " ops,team-a\n");
        Files.setPosixFilePermissions(tokens, PosixFilePermissions.fromString("rw-------"));
        MemfasMcpHttpServer server = serve(MemfasMcpHttpServer.builder(curator).tokenFile(tokens));
        String a = "Authorization: Bearer " + TOKEN_A;
        String ops = "Authorization: Bearer " + TOKEN_OPS;
        String sessionA = initialize(server, a);
        String sessionOps = initialize(server, ops);

        Reply aOwn = post(server, callTool("recall", "{\"query\":\"when does the team deploy\"}"), a,
                "Mcp-Session-Id: " + sessionA);
        assertThat(aOwn.text()).contains("deploys on Tuesdays");
        Reply aOps = post(server, callTool("recall", "{\"query\":\"pager\",\"namespace\":\"ops\"}"), a,
                "Mcp-Session-Id: " + sessionA);
        assertThat(aOps.text()).contains("this server serves the namespace 'team-a' only, not 'ops'")
                .doesNotContain("rotates the pager");
        Reply opsOwn = post(server, callTool("recall", "{\"query\":\"pager\"}"), ops, "Mcp-Session-Id: " + sessionOps);
        assertThat(opsOwn.text()).contains("rotates the pager");
        Reply opsA = post(server, callTool("recall", "{\"query\":\"deploy\",\"namespace\":\"team-a\"}"), ops,
                "Mcp-Session-Id: " + sessionOps);
        assertThat(opsA.text()).contains("deploys on Tuesdays");

        // Team A's token on ops' session: as if the session did not exist.
        assertJsonRpcError(post(server, callTool("recall", "{\"query\":\"pager\"}"), a, "Mcp-Session-Id: "
                + sessionOps), 404, -32001, "session not found");
        assertJsonRpcError(post(server, INITIALIZE), 401, -32001, "no bearer token");
        assertJsonRpcError(post(server, INITIALIZE, "Authorization: Bearer " + TOKEN_A + "x"), 401, -32001,
                "wrong bearer token");
    }

    @Test
    void aTokenFileOthersMayRead_orMalformed_failsAtStartNamingTheProblem() throws Exception {
        Path tokens = dir.resolve("tokens");
        Files.writeString(tokens, TOKEN_A + " team-a\n");
        Files.setPosixFilePermissions(tokens, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> MemfasMcpHttpServer.builder(curator).port(0).tokenFile(tokens).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("may be read by other users (mode rw-r--r--)").hasMessageContaining("chmod 600");

        Files.setPosixFilePermissions(tokens, PosixFilePermissions.fromString("rw-------"));
        Files.writeString(tokens, "# none yet\n");
        assertThatThrownBy(() -> MemfasMcpHttpServer.builder(curator).port(0).tokenFile(tokens).build())
                .hasMessageContaining("holds no token");
        Files.writeString(tokens, "short team-a\n");
        assertThatThrownBy(() -> MemfasMcpHttpServer.builder(curator).port(0).tokenFile(tokens).build())
                .hasMessageContaining("line 1: the token must have at least 16 characters");
        Files.writeString(tokens, TOKEN_A + " team-a,\n");
        assertThatThrownBy(() -> MemfasMcpHttpServer.builder(curator).port(0).tokenFile(tokens).build())
                .hasMessageContaining("line 1: namespace");
        Files.writeString(tokens, TOKEN_A + " a\n" + TOKEN_A + " b\n");
        assertThatThrownBy(() -> MemfasMcpHttpServer.builder(curator).port(0).tokenFile(tokens).build())
                .hasMessageContaining("line 2: this token is listed twice");
        assertThatThrownBy(() -> MemfasMcpHttpServer.builder(curator).port(0).tokenFile(tokens)
                .bearerToken(TOKEN_OPS).build()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void malformedJsonRpc_getsAJsonRpcError_neverAStackTrace_orAnEmptyReply() throws Exception {
        MemfasMcpHttpServer server = serve(MemfasMcpHttpServer.builder(curator));
        String session = initialize(server);
        String s = "Mcp-Session-Id: " + session;

        assertJsonRpcError(post(server, "not json", s), 400, -32700, "not JSON");
        assertJsonRpcError(post(server, "[" + INITIALIZE + "]", s), 400, -32600, "batches are not served");
        assertJsonRpcError(post(server, "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"tools/list\"}", s), 400, -32600,
                "id must be a string or an integer");
        Reply stringArguments = post(server, callTool("recall", "\"query=deploys\""), s);
        assertJsonRpcError(stringArguments, 400, -32602, "arguments must be an object");
        assertThat(stringArguments.message().get("id").asInt()).isEqualTo(7);
        assertJsonRpcError(post(server, callTool("recall", "[\"deploys\"]"), s), 400, -32602,
                "arguments must be an object");
        // Errors the SDK itself answers: no session, an unknown session.
        assertJsonRpcError(post(server, callTool("recall", "{\"query\":\"x\"}")), 400, -32601, "Session ID required");
        Reply unknown = post(server, callTool("recall", "{\"query\":\"x\"}"), "Mcp-Session-Id: no-such-session");
        assertThat(unknown.status()).isEqualTo(404);
        assertJsonRpcError(unknown, 404, -32603, "Session not found");
        assertJsonRpcError(exchange(server, "PUT", "{}"), 405, -32600, "PUT is not supported");
        // The server still serves.
        assertThat(post(server, callTool("recall", "{\"query\":\"x\"}"), s).message().at("/result/isError")
                .asBoolean()).isFalse();
    }

    @Test
    void aLoneSurrogateInStoredText_goesOutAsWellFormedUtf8() throws Exception {
        curator.remember(Memory.builder("Deploys happen on Tuesdays \uDC00 after the standup.").id("m").build());
        MemfasMcpHttpServer server = serve(MemfasMcpHttpServer.builder(curator));
        String session = initialize(server);

        Reply r = post(server, callTool("recall", "{\"query\":\"when do deploys happen\"}"),
                "Mcp-Session-Id: " + session);

        assertThat(strictUtf8(r.body())).as("decodes as strict UTF-8").isTrue();
        assertThat(r.text()).contains("Tuesdays \uFFFD after");
    }
}
