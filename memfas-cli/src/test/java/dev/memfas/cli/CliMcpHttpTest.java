package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The options of {@code memfas mcp} that fail before anything is served. */
final class CliMcpHttpTest {
    @TempDir
    Path dir;

    @Test
    void httpOptionsWithoutHttp_areAUsageError() {
        CliRun r = CliRun.of(dir.resolve("m.db"), "mcp", "--port", "9000");

        assertThat(r.exit()).isEqualTo(Main.USAGE);
        assertThat(r.err()).contains("--port, --host and --token-file go with --http");
    }

    @Test
    void tools_nameThatIsNeitherProfileNorTool_isBadInput_namingIt() {
        // Over HTTP: in this JVM, a stdio server would read the test runner's standard input (McpClientIT runs one).
        CliRun http = CliRun.of(dir.resolve("m.db"), "mcp", "--http", "--port", "0", "--tools", "ful");

        assertThat(http.exit()).isEqualTo(Main.INPUT);
        assertThat(http.err()).contains("tools: 'ful' is neither a profile");
    }

    @Test
    void tools_fromTheConfig_areReadAsAListOrAString_andTheFlagOverridesThem() throws Exception {
        Path listed = Files.writeString(dir.resolve("listed.yaml"), "mcp:\n  tools: [core, bogus]\n");
        Path string = Files.writeString(dir.resolve("string.yaml"), "mcp: {tools: \"core,bogus2\"}\n");
        Path unknownKey = Files.writeString(dir.resolve("key.yaml"), "mcp: {profile: core}\n");

        CliRun fromList = CliRun.of(dir.resolve("m.db"), "mcp", "--http", "--port", "0", "--config", listed.toString());
        CliRun fromString = CliRun.of(dir.resolve("m.db"), "mcp", "--http", "--port", "0", "--config",
                string.toString());
        CliRun overridden = CliRun.of(dir.resolve("m.db"), "mcp", "--http", "--port", "0", "--config",
                string.toString(), "--tools", "bogus3");
        CliRun badKey = CliRun.of(dir.resolve("m.db"), "mcp", "--http", "--port", "0", "--config",
                unknownKey.toString());

        assertThat(fromList.err()).contains("tools: 'bogus' is neither");
        assertThat(fromString.err()).contains("tools: 'bogus2' is neither");
        assertThat(overridden.err()).contains("tools: 'bogus3' is neither");
        assertThat(badKey.exit()).isEqualTo(Main.INPUT);
        assertThat(badKey.err()).contains("profile");
    }

    @Test
    void offLoopbackWithoutAToken_isRefused_andSaysWhy() {
        CliRun r = CliRun.of(dir.resolve("m.db"), "mcp", "--http", "--host", "0.0.0.0", "--port", "0");

        assertThat(r.exit()).isEqualTo(Main.FAILURE);
        assertThat(r.err()).contains("serving MCP on 0.0.0.0, not a loopback address, needs a bearer token");
    }

    @Test
    void aTokenFile_thatIsEmptyTooShortOrReadableByOthers_isRefused_withoutShowingTheToken() throws Exception {
        Path empty = Files.writeString(dir.resolve("empty"), "\n");
        Path shortToken = Files.writeString(dir.resolve("short"), "abc123\n");
        Path shared = Files.writeString(dir.resolve("shared"), "a-token-long-enough-0123\n");
        for (Path p : new Path[] {empty, shortToken}) {
            Files.setPosixFilePermissions(p, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        }

        CliRun none = CliRun.of(dir.resolve("m.db"), "mcp", "--http", "--port", "0", "--token-file", empty.toString());
        CliRun weak = CliRun.of(dir.resolve("m.db"), "mcp", "--http", "--port", "0", "--token-file",
                shortToken.toString());

        CliRun readable = CliRun.of(dir.resolve("m.db"), "mcp", "--http", "--port", "0", "--token-file",
                shared.toString());

        assertThat(none.exit()).isEqualTo(Main.INPUT);
        assertThat(none.err()).contains("the tokens file holds no token: " + empty);
        assertThat(weak.exit()).isEqualTo(Main.INPUT);
        assertThat(weak.err()).contains(shortToken + ", line 1: the token must have at least 16 characters: it has 6")
                .doesNotContain("abc123");
        assertThat(readable.exit()).isEqualTo(Main.INPUT);
        assertThat(readable.err()).contains("may be read by other users").doesNotContain("a-token-long-enough");
    }
}
