package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.cli.McpClientConfig.Client;
import dev.memfas.cli.McpClientConfig.Server;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.toml.TomlMapper;

final class McpClientConfigTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-27T10:15:30Z"), ZoneOffset.UTC);
    private static final Server SERVER = new Server("memfas", "/home/u/.local/bin/memfas",
            List.of("mcp", "--db", "/work/p/.memfas/memfas.db"));

    @TempDir
    Path home;

    private Path file(Client client) {
        return client.file(home, home.resolve("project"), "Linux", Map.of());
    }

    // ---------------------------------------------------------------- where each client keeps its servers

    @Test
    void eachClient_readsItsOwnFile() {
        Path project = home.resolve("project");
        assertThat(Client.CLAUDE_CODE.file(home, project, "Linux", Map.of())).isEqualTo(project.resolve(".mcp.json"));
        assertThat(Client.CLAUDE_DESKTOP.file(home, project, "Mac OS X", Map.of()))
                .isEqualTo(home.resolve("Library/Application Support/Claude/claude_desktop_config.json"));
        assertThat(Client.CLAUDE_DESKTOP.file(home, project, "Linux", Map.of()))
                .isEqualTo(home.resolve(".config/Claude/claude_desktop_config.json"));
        assertThat(Client.CLAUDE_DESKTOP.file(home, project, "Windows 11", Map.of("APPDATA", "/appdata")))
                .isEqualTo(Path.of("/appdata", "Claude", "claude_desktop_config.json"));
        assertThat(Client.CURSOR.file(home, project, "Linux", Map.of())).isEqualTo(home.resolve(".cursor/mcp.json"));
        assertThat(Client.VSCODE.file(home, project, "Linux", Map.of())).isEqualTo(project.resolve(".vscode/mcp.json"));
        assertThat(Client.CODEX.file(home, project, "Linux", Map.of())).isEqualTo(home.resolve(".codex/config.toml"));
        assertThat(Client.CODEX.file(home, project, "Linux", Map.of("CODEX_HOME", "/ch")))
                .isEqualTo(Path.of("/ch/config.toml"));
    }

    @Test
    void client_unknownName_throwsNamingTheClients() {
        assertThatThrownBy(() -> Client.parse("emacs")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown client 'emacs': give one of claude-code, claude-desktop, cursor, vscode, codex");
        assertThat(Client.parse(" Cursor ")).isEqualTo(Client.CURSOR);
    }

    // ---------------------------------------------------------------- JSON clients

    @Test
    void jsonClients_noFile_createTheFileWithTheServerInTheirShape() throws Exception {
        for (Client client : List.of(Client.CLAUDE_CODE, Client.CLAUDE_DESKTOP, Client.CURSOR, Client.VSCODE)) {
            McpClientConfig.Written w = McpClientConfig.write(client, file(client), SERVER, CLOCK);

            JsonNode root = JSON.readTree(Files.readString(file(client)));
            String key = client == Client.VSCODE ? "servers" : "mcpServers";
            JsonNode entry = root.get(key).get("memfas");
            assertThat(entry.get("command").asString()).as(client.id).isEqualTo("/home/u/.local/bin/memfas");
            assertThat(entry.get("args").toString()).isEqualTo("[\"mcp\",\"--db\",\"/work/p/.memfas/memfas.db\"]");
            assertThat(entry.has("type")).isEqualTo(client == Client.VSCODE);
            assertThat(w.replaced()).isFalse();
            assertThat(w.backup()).isNull();
        }
    }

    @Test
    void jsonClient_withOtherServersAndKeys_keepsThemAll_andBacksUpTheFileFirst() throws Exception {
        Path file = file(Client.CURSOR);
        Files.createDirectories(file.getParent());
        String before = """
                {
                  "mcpServers": {
                    "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
                               "env": {"GITHUB_TOKEN": "t0ken"}}
                  },
                  "theme": "dark"
                }
                """;
        Files.writeString(file, before);

        McpClientConfig.Written first = McpClientConfig.write(Client.CURSOR, file, SERVER, CLOCK);
        McpClientConfig.Written again = McpClientConfig.write(Client.CURSOR, file,
                new Server("memfas", "/opt/memfas/bin/memfas", List.of("mcp")), CLOCK);

        JsonNode root = JSON.readTree(Files.readString(file));
        assertThat(root.get("theme").asString()).isEqualTo("dark");
        assertThat(root.at("/mcpServers/github/env/GITHUB_TOKEN").asString()).isEqualTo("t0ken");
        assertThat(root.at("/mcpServers/memfas/command").asString()).isEqualTo("/opt/memfas/bin/memfas");
        assertThat(root.get("mcpServers").size()).isEqualTo(2);
        assertThat(first.replaced()).isFalse();
        assertThat(again.replaced()).isTrue();
        assertThat(first.backup()).isEqualTo(file.resolveSibling("mcp.json.memfas-20261127-101530.bak"));
        assertThat(Files.readString(first.backup(), StandardCharsets.UTF_8)).isEqualTo(before);
        assertThat(again.backup()).isEqualTo(file.resolveSibling("mcp.json.memfas-20261127-101530-2.bak"));
        assertThat(Files.readString(again.backup())).contains("/home/u/.local/bin/memfas");
    }

    @Test
    void jsonClient_unreadableFile_isRefusedNamingIt_andNothingIsWritten() throws Exception {
        Path file = file(Client.CLAUDE_DESKTOP);
        Files.createDirectories(file.getParent());
        Files.writeString(file, "{\"mcpServers\": {\"x\": }\n");

        assertThatThrownBy(() -> McpClientConfig.write(Client.CLAUDE_DESKTOP, file, SERVER, CLOCK))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot read " + file + " as JSON (line 1, column 22: ")
                .hasMessageEndingWith("nothing was written; fix the file or move it away, then run this again");
        assertThat(Files.readString(file)).isEqualTo("{\"mcpServers\": {\"x\": }\n");
        try (var files = Files.list(file.getParent())) {
            assertThat(files.toList()).containsExactly(file);
        }
    }

    @Test
    void jsonClient_fileWithComments_isRefused_becauseARewriteWouldLoseThem() throws Exception {
        Path file = file(Client.VSCODE);
        Files.createDirectories(file.getParent());
        String before = "{\n  // our servers\n  \"servers\": {},\n}\n";
        Files.writeString(file, before);

        assertThatThrownBy(() -> McpClientConfig.write(Client.VSCODE, file, SERVER, CLOCK))
                .hasMessageContaining("it holds comments or trailing commas, which rewriting it would lose");
        assertThat(Files.readString(file)).isEqualTo(before);
    }

    @Test
    void jsonClient_serversThatAreNotAnObject_orARootThatIsNot_areRefused() throws Exception {
        Path file = file(Client.CURSOR);
        Files.createDirectories(file.getParent());
        Files.writeString(file, "{\"mcpServers\": []}");
        assertThatThrownBy(() -> McpClientConfig.write(Client.CURSOR, file, SERVER, CLOCK))
                .hasMessage("cannot add a server to " + file + ": its 'mcpServers' is not an object; nothing was"
                        + " written");
        Files.writeString(file, "[1, 2]");
        assertThatThrownBy(() -> McpClientConfig.write(Client.CURSOR, file, SERVER, CLOCK))
                .hasMessage("cannot add a server to " + file + ": it holds a JSON array, not an object; nothing was"
                        + " written");
    }

    // ---------------------------------------------------------------- Codex's TOML

    @Test
    void codex_keepsTheRestOfTheFileAsWritten_andReplacesOnlyItsOwnTable() throws Exception {
        Path file = file(Client.CODEX);
        Files.createDirectories(file.getParent());
        String before = """
                # my settings
                model = "o4-mini"

                [mcp_servers.memfas]
                command = "/old/memfas"
                args = ["mcp"]

                [mcp_servers.memfas.env]
                A = "1"

                [mcp_servers.docs]  # documentation
                command = "npx"
                args = ["-y", "docs-server"]
                """;
        Files.writeString(file, before);

        McpClientConfig.Written w = McpClientConfig.write(Client.CODEX, file,
                new Server("memfas", "/home/u/\"odd\" dir/memfas", List.of("mcp", "--db", "C:\\db")), CLOCK);

        String after = Files.readString(file);
        assertThat(after).startsWith("# my settings\nmodel = \"o4-mini\"\n").contains("[mcp_servers.docs]  #"
                + " documentation\n").doesNotContain("/old/memfas").doesNotContain("A = \"1\"");
        JsonNode read = TomlMapper.builder().build().readTree(after);
        assertThat(read.at("/mcp_servers/memfas/command").asString()).isEqualTo("/home/u/\"odd\" dir/memfas");
        assertThat(read.at("/mcp_servers/memfas/args").toString()).isEqualTo("[\"mcp\",\"--db\",\"C:\\\\db\"]");
        assertThat(read.at("/mcp_servers/docs/args/1").asString()).isEqualTo("docs-server");
        assertThat(w.replaced()).isTrue();
        assertThat(Files.readString(w.backup())).isEqualTo(before);
    }

    @Test
    void codex_unreadableFile_isRefusedNamingIt() throws Exception {
        Path file = file(Client.CODEX);
        Files.createDirectories(file.getParent());
        Files.writeString(file, "model = \n");

        assertThatThrownBy(() -> McpClientConfig.write(Client.CODEX, file, SERVER, CLOCK))
                .hasMessageStartingWith("cannot read " + file + " as TOML (");
        assertThat(Files.readString(file)).isEqualTo("model = \n");
    }

    @Test
    void server_nameThatIsNotAPlainWord_throws() {
        assertThatThrownBy(() -> new Server("mem fas]", "/x", List.of()))
                .hasMessage("a server name has 1 to 64 letters, digits, '-' or '_': 'mem fas]'");
    }
}
