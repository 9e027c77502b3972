package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.postgres.EmbeddedPostgres;
import dev.memfas.postgres.PostgresMemoryStore;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code memfas mcp --http --db postgresql://…}: the packaged command serves a PostgreSQL store to an MCP client (the
 * MCP Java SDK's), and what the client remembered is in the database after the server stops.
 */
final class CliMcpPostgresIT {
    private static final Path JAR = Path.of("").toAbsolutePath().resolve("target/memfas.jar");
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @TempDir
    Path dir;

    @Test
    void mcpOverHttp_onAPostgresDatabase_remembersAndCurates_andTheMemoryOutlivesTheServer() throws Exception {
        assertThat(JAR).as("memfas.jar is built by the package phase").isRegularFile();
        String jdbc = EmbeddedPostgres.shared().newSchemaUrl();
        String schema = jdbc.substring(jdbc.indexOf("currentSchema=") + "currentSchema=".length());
        String url = "postgresql://postgres@127.0.0.1:" + EmbeddedPostgres.shared().port() + "/postgres?currentSchema="
                + schema;
        Path errors = dir.resolve("server-stderr.txt");
        Process server = new ProcessBuilder(JAVA, "-jar", JAR.toString(), "mcp", "--http", "--port", "0", "--db", url,
                "--model", "none").directory(dir.toFile()).redirectOutput(dir.resolve("server-stdout.txt").toFile())
                .redirectError(errors.toFile()).start();
        try {
            URI uri = URI.create(McpClientIT.awaitServing(server, errors));
            try (McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport
                            .builder("http://" + uri.getHost() + ":" + uri.getPort()).endpoint(uri.getPath()).build())
                    .requestTimeout(Duration.ofSeconds(30)).build()) {
                client.initialize();
                McpSchema.CallToolResult remembered = client.callTool(McpSchema.CallToolRequest.builder("remember")
                        .arguments(Map.of("text", "The staging database password rotates every 90 days.", "id",
                                "rotation")).build());
                assertThat(remembered.isError()).as(text(remembered)).isFalse();

                McpSchema.CallToolResult context = client.callTool(McpSchema.CallToolRequest.builder("get_context")
                        .arguments(Map.of("query", "when does the staging database password rotate", "session_id",
                                "s1")).build());
                assertThat(context.isError()).as(text(context)).isFalse();
                assertThat(text(context)).containsPattern("<memory id=\"rotation\"|\\n\\[rotation\\] ")
                        .contains("rotates every 90 days");
            }
        } finally {
            server.destroy(); // SIGTERM: the shutdown hook stops serving and closes the store
            assertThat(server.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        try (PostgresMemoryStore store = PostgresMemoryStore.open(jdbc)) {
            assertThat(store.get("default", "rotation").orElseThrow().memory().text())
                    .isEqualTo("The staging database password rotates every 90 days.");
            assertThat(store.get("default", "rotation").orElseThrow().accessCount()).isEqualTo(1);
        }
        assertThat(Files.readString(errors)).contains("serving MCP at http://127.0.0.1:");
    }

    private static String text(McpSchema.CallToolResult r) {
        return ((McpSchema.TextContent) r.content().get(0)).text();
    }
}
