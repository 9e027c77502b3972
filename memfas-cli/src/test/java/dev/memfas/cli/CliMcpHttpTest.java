package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The options of {@code memfas mcp --http} that fail before anything is served. */
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
    void offLoopbackWithoutAToken_isRefused_andSaysWhy() {
        CliRun r = CliRun.of(dir.resolve("m.db"), "mcp", "--http", "--host", "0.0.0.0", "--port", "0");

        assertThat(r.exit()).isEqualTo(Main.FAILURE);
        assertThat(r.err()).contains("serving MCP on 0.0.0.0, not a loopback address, needs a bearer token");
    }

    @Test
    void aTokenFile_thatIsEmptyOrTooShort_isRefused_withoutShowingTheToken() throws Exception {
        Path empty = Files.writeString(dir.resolve("empty"), "\n");
        Path shortToken = Files.writeString(dir.resolve("short"), "abc123\n");

        CliRun none = CliRun.of(dir.resolve("m.db"), "mcp", "--http", "--port", "0", "--token-file", empty.toString());
        CliRun weak = CliRun.of(dir.resolve("m.db"), "mcp", "--http", "--port", "0", "--token-file",
                shortToken.toString());

        assertThat(none.exit()).isEqualTo(Main.INPUT);
        assertThat(none.err()).contains("the token file is empty: " + empty);
        assertThat(weak.exit()).isEqualTo(Main.INPUT);
        assertThat(weak.err()).contains("bearer token must have at least 16 characters: it has 6")
                .doesNotContain("abc123");
    }
}
