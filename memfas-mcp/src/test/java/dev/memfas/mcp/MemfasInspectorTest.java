package dev.memfas.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The inspector's calls over HTTP: what they answer, and what they refuse, and why. */
final class MemfasInspectorTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static HttpResponse<String> get(MemfasInspector inspector, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(inspector.uri().resolve(path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(MemfasInspector inspector, String path, String type, String body)
            throws Exception {
        return HTTP.send(HttpRequest.newBuilder(inspector.uri().resolve(path)).header("Content-Type", type)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @TempDir
    Path dir;

    @Test
    void thePageAndTheCalls_andEveryRefusalNamesItsReason() throws Exception {
        try (ContextCurator curator = Memfas.newBuilder().store(SqliteMemoryStore.open(dir.resolve("m.db"))).build();
             MemfasInspector inspector = MemfasInspector.builder(curator).port(0).namespace("team-a").build()) {
            curator.remember(Memory.builder("We deploy on Tuesdays.").id("deploy").namespace("team-a").build());
            curator.remember(Memory.builder("The old wiki lives on confluence.").id("wiki").namespace("team-a")
                    .archivedAt(java.time.Instant.parse("2026-01-01T00:00:00Z")).build());

            HttpResponse<String> page = get(inspector, "/");
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.headers().firstValue("Content-Security-Policy")).hasValue(InspectorPage.POLICY);
            assertThat(get(inspector, "/inspector.js").body()).contains("textContent").doesNotContain("innerHTML");
            assertThat(get(inspector, "/../pom.xml").statusCode()).isIn(400, 404);
            assertThat(get(inspector, "/pom.xml").statusCode()).isEqualTo(404);

            assertThat(get(inspector, "/api/memories").body()).contains("\"id\":\"deploy\"")
                    .doesNotContain("\"id\":\"wiki\"");
            assertThat(get(inspector, "/api/memories?archived=true").body()).contains("\"id\":\"wiki\"");
            assertThat(post(inspector, "/api/restore", "application/json", "{\"id\": \"wiki\"}").body())
                    .contains("\"archived\":false");
            assertThat(curator.get("team-a", "wiki").orElseThrow().memory().isArchived()).isFalse();
            assertThat(post(inspector, "/api/restore", "application/json", "{\"id\": \"wiki\"}").statusCode())
                    .isEqualTo(400);
            assertThat(get(inspector, "/api/memory?id=deploy").body()).contains("\"chain\"").contains("\"history\"");
            assertThat(get(inspector, "/api/memory").body()).contains("'id' is required");
            assertThat(get(inspector, "/api/memory?id=nothing").body())
                    .contains("namespace 'team-a' has no memory 'nothing'");
            HttpResponse<String> other = get(inspector, "/api/memories?namespace=team-b");
            assertThat(other.statusCode()).isEqualTo(400);
            assertThat(other.body()).contains("serves the namespace 'team-a' only, not 'team-b'");
            assertThat(get(inspector, "/api/nothing").statusCode()).isEqualTo(404);
            assertThat(get(inspector, "/api/memories?offset=ten").body()).contains("'offset' must be a whole number");

            assertThat(post(inspector, "/api/forget", "text/plain", "{\"id\": \"deploy\"}").body())
                    .contains("must be sent as application/json");
            assertThat(post(inspector, "/api/forget", "application/json", "{nope").body()).contains("is not JSON");
            assertThat(post(inspector, "/api/pin", "application/json", "{\"id\": \"deploy\", \"pinned\": \"yes\"}")
                    .body()).contains("'pinned' must be true or false");
            assertThat(post(inspector, "/api/replay", "application/json", "{\"query\": \"deploy?\", \"budget\": 0}")
                    .statusCode()).isEqualTo(400);
            assertThat(post(inspector, "/api/edit", "application/json",
                    "{\"id\": \"deploy\", \"text\": \"We deploy on Wednesdays.\"}").statusCode()).isEqualTo(200);
            assertThat(curator.get("team-a", "deploy").orElseThrow().memory().text())
                    .isEqualTo("We deploy on Wednesdays.");
            assertThat(post(inspector, "/api/replay", "application/json", "{\"query\": \"when do we deploy?\"}")
                    .body()).contains("Wednesdays").contains("\"factors\"");
            assertThat(post(inspector, "/api/forget", "application/json", "{\"id\": \"deploy\"}").body())
                    .contains("\"forgotten\":true");
            assertThat(curator.get("team-a", "deploy")).isEmpty();

            // A page of another site, or a name pointed at 127.0.0.1: refused before anything is read.
            assertThat(HTTP.send(HttpRequest.newBuilder(inspector.uri().resolve("/api/memories"))
                    .header("Origin", "http://evil.example").build(), HttpResponse.BodyHandlers.ofString())
                    .statusCode()).isEqualTo(403);
            assertThat(rawGet(inspector.uri(), "/api/memories", "evil.example")).startsWith("HTTP/1.1 403");
        }
    }

    @Test
    void anAddressOtherThanLoopback_needsAToken() {
        try (ContextCurator curator = Memfas.newBuilder().build()) {
            assertThatThrownBy(() -> MemfasInspector.builder(curator).host("0.0.0.0").port(0).build())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("serving the inspector on 0.0.0.0, not a loopback address, needs a bearer");
            assertThatThrownBy(() -> MemfasInspector.builder(curator).bearerToken("short"))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aPortTaken_isAnErrorNamingIt_andAFreedPortServesAgain() throws Exception {
        try (ContextCurator curator = Memfas.newBuilder().build()) {
            int port;
            try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = taken.getLocalPort();
                assertThatThrownBy(() -> MemfasInspector.builder(curator).port(port).build())
                        .isInstanceOf(UncheckedIOException.class)
                        .hasMessageContaining("cannot serve the inspector on 127.0.0.1:" + port);
            }
            MemfasInspector first = MemfasInspector.builder(curator).port(0).build();
            int served = first.port();
            assertThat(get(first, "/").statusCode()).isEqualTo(200);
            first.close();
            first.close();
            // Closing released the port: a second inspector binds it.
            try (MemfasInspector second = MemfasInspector.builder(curator).port(served).build()) {
                assertThat(second.uri()).isEqualTo(URI.create("http://127.0.0.1:" + served + "/"));
                assertThat(get(second, "/api/namespaces").statusCode()).isEqualTo(200);
            }
        }
    }

    /** A GET with a Host header of our choosing, which the JDK's client does not allow. */
    private static String rawGet(URI base, String path, String host) throws Exception {
        try (Socket s = new Socket(base.getHost(), base.getPort())) {
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
