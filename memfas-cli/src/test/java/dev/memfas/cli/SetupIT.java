package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.toml.TomlMapper;

/**
 * {@code memfas setup CLIENT} as a user runs it: the packaged command in a home of its own, for every client, over
 * configuration files that already hold another server; then the server it wrote is started as the client would start
 * it, and answers.
 */
final class SetupIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Path JAR = Path.of("target/memfas.jar").toAbsolutePath();
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    /** Another server each file holds before, which must be there after. */
    private static final Map<String, String> BEFORE = Map.of(
            "claude-code", "{\"mcpServers\": {\"github\": {\"command\": \"npx\", \"args\": [\"gh\"]}}}\n",
            "claude-desktop", "{\"mcpServers\": {\"github\": {\"command\": \"npx\", \"args\": [\"gh\"]}},"
                    + " \"globalShortcut\": \"Ctrl+Space\"}\n",
            "cursor", "{\"mcpServers\": {\"github\": {\"command\": \"npx\", \"args\": [\"gh\"]}}}\n",
            "vscode", "{\"servers\": {\"github\": {\"type\": \"stdio\", \"command\": \"npx\", \"args\": [\"gh\"]}},"
                    + " \"inputs\": []}\n",
            "codex", "model = \"o4-mini\"\n\n[mcp_servers.github]\ncommand = \"npx\"\nargs = [\"gh\"]\n");

    @TempDir
    Path dir;

    private record Result(int exit, String out, String err) {}

    private Result memfas(Path home, Path project, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(JAVA, "-Duser.home=" + home, "-jar", JAR.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(project.toFile());
        pb.environment().remove("CODEX_HOME");
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        p.getOutputStream().close();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    /** A launcher as install.sh writes one: a script that starts the packaged command. */
    private Path launcher() throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path script = bin.resolve("memfas");
        Files.writeString(script, "#!/bin/sh\nexec \"" + JAVA + "\" -jar \"" + JAR + "\" \"$@\"\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    @Test
    void everyClient_getsTheServerBesideItsOthers_withABackup_andTheEntryStartsAServerThatAnswers() throws Exception {
        Path launcher = launcher();
        for (String client : List.of("claude-code", "claude-desktop", "cursor", "vscode", "codex")) {
            Path home = Files.createDirectories(dir.resolve("home-" + client));
            Path project = Files.createDirectories(dir.resolve("project-" + client));
            Path file = McpClientConfig.Client.parse(client).file(home, project, System.getProperty("os.name"),
                    Map.of());
            Files.createDirectories(file.getParent());
            Files.writeString(file, BEFORE.get(client));

            Result r = memfas(home, project, "setup", client, "--command", launcher.toString(), "--db",
                    project.resolve(".memfas/memfas.db").toString());

            assertThat(r.exit()).as(client + ": " + r.err()).isZero();
            assertThat(r.out()).startsWith("added the server 'memfas' in " + file + " (the file as it was: ")
                    .contains("it runs: " + launcher + " mcp --db " + project.resolve(".memfas/memfas.db"));
            try (var listed = Files.list(file.getParent())) {
                Path backup = listed.filter(p -> p.getFileName().toString().endsWith(".bak")).findFirst()
                        .orElseThrow();
                assertThat(Files.readString(backup)).as(client).isEqualTo(BEFORE.get(client));
            }
            String text = Files.readString(file);
            JsonNode root = client.equals("codex") ? TomlMapper.builder().build().readTree(text) : JSON.readTree(text);
            JsonNode servers = root.get(client.equals("vscode") ? "servers" : client.equals("codex") ? "mcp_servers"
                    : "mcpServers");
            assertThat(servers.get("github").get("command").asString()).as(client).isEqualTo("npx");
            JsonNode entry = servers.get("memfas");
            assertThat(entry.get("command").asString()).isEqualTo(launcher.toString());

            if (client.equals("cursor")) {
                List<String> start = new ArrayList<>(List.of(entry.get("command").asString()));
                entry.get("args").forEach(a -> start.add(a.asString()));
                assertThat(toolsOfServerStartedAs(start)).containsExactly("get_context", "report_usage", "remember",
                        "recall", "forget");
            }
        }
    }

    @Test
    void print_showsTheEntryAndWritesNothing_andANonInstalledCommandIsRefused() throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"));
        Path project = Files.createDirectories(dir.resolve("project"));

        Result printed = memfas(home, project, "setup", "codex", "--print", "--command", launcher().toString(),
                "--tools", "core,state");
        Result refused = memfas(home, project, "setup", "cursor");
        Result unknown = memfas(home, project, "setup", "emacs", "--command", launcher().toString());

        assertThat(printed.exit()).as(printed.err()).isZero();
        assertThat(printed.out()).startsWith("[mcp_servers.memfas]\ncommand = \"" + launcher() + "\"\n")
                .contains("\"--tools\", \"core,state\"]");
        assertThat(printed.err()).contains("the entry for Codex CLI, in " + home.resolve(".codex/config.toml"));
        assertThat(refused.exit()).isEqualTo(Main.INPUT);
        assertThat(refused.err()).contains("this memfas is not an installed one, and an MCP client needs a command"
                + " that starts at once: run ./install.sh");
        assertThat(unknown.err()).contains("unknown client 'emacs': give one of claude-code, claude-desktop, cursor,"
                + " vscode, codex");
        try (var files = Files.walk(home)) {
            assertThat(files.filter(Files::isRegularFile).toList()).isEmpty();
        }
    }

    /** The tool names a server started with this command lists, over raw JSON-RPC. */
    private static List<String> toolsOfServerStartedAs(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String requests = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}\n"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}\n";
        try (OutputStream in = p.getOutputStream()) {
            in.write(requests.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        List<String> names = new ArrayList<>();
        for (String line : out.split("\n")) {
            JsonNode message = JSON.readTree(line);
            if (message.path("id").asInt() == 2) {
                message.at("/result/tools").forEach(t -> names.add(t.get("name").asString()));
            }
        }
        return names;
    }
}
