package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code memfas mcp} driven by real clients: the official MCP TypeScript SDK client (installed with {@code npm ci}
 * from the committed lock file), and a raw JSON-RPC writer that closes standard input right after its requests.
 */
final class McpClientIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Path MODULE = Path.of("").toAbsolutePath();
    private static final Path JAR = MODULE.resolve("target/memfas.jar");
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @TempDir
    Path dir;

    @BeforeAll
    static void jarIsBuilt() {
        assertThat(JAR).as("memfas.jar is built by the package phase").isRegularFile();
    }

    @Test
    void officialTypeScriptClient_remembersCuratesReportsAndGetsAToolError() throws Exception {
        requireOnPath("node", "Node.js 18 or newer");
        requireOnPath("npm", "npm");
        Path client = installClient();

        Result r = run(client, null, 300, "node", "client.mjs", JAVA, JAR.toString(), dir.resolve("m.db").toString());

        assertThat(r.exit).as("client failed:\n" + r.stderr).isZero();
        JsonNode out = JSON.readTree(r.stdout);
        assertThat(out.at("/server/name").asString()).isEqualTo("memfas");
        List<String> tools = new ArrayList<>();
        out.get("tools").forEach(t -> {
            tools.add(t.get("name").asString());
            assertThat(t.get("hasOutputSchema").asBoolean()).as(t.toString()).isTrue();
            assertThat(t.get("annotations").has("readOnlyHint")).as(t.toString()).isTrue();
        });
        assertThat(tools).containsExactlyInAnyOrder("get_context", "report_usage", "set_budget", "memory_context",
                "patterns", "remember_conversation", "remember", "recall", "get", "list", "update", "supersede", "history", "maintain", "summarize", "restore", "time",
                "report_event", "orient",
                "promote", "working_memory", "suggest_triggers", "add_trigger", "save_state", "load_state",
                "list_state_keys", "search_state", "delete_state", "offer", "clear_state", "forget");
        // The tools called in the conversation's first part, and the rest through `call`: every tool of the profile.
        Set<String> called = new HashSet<>(List.of("remember", "get_context", "report_usage", "get", "update", "list",
                "recall", "set_budget", "forget", "working_memory", "promote"));
        out.get("called").forEach(t -> called.add(t.asString()));
        assertThat(out.get("errors")).as("tool errors").isNull();
        assertThat(called).containsExactlyInAnyOrderElementsOf(tools);
        assertThat(out.at("/supersedingRemember/structured/reason").asString()).isEqualTo("supersedes build-old");
        // A dry run of a conversation: its facts, nothing stored.
        assertThat(out.at("/chat/structured/dry_run").asBoolean()).isTrue();
        assertThat(out.at("/chat/structured/facts").toString()).contains("user: I prefer short answers in code reviews.")
                .contains("The next review is on March 3.");
        assertThat(annotation(out, "get_context", "readOnlyHint")).isTrue();
        assertThat(annotation(out, "recall", "readOnlyHint")).isTrue();
        assertThat(annotation(out, "forget", "destructiveHint")).isTrue();
        assertThat(annotation(out, "set_budget", "idempotentHint")).isTrue();
        assertThat(out.get("prompts").toString()).contains("use_memory");
        assertThat(out.get("prompt").asString()).contains("\"it-1\"").contains("get_context").contains("report_usage");

        String id = out.at("/remember/structured/memory_id").asString();
        assertThat(out.at("/remember/isError").asBoolean()).isFalse();
        assertThat(out.at("/getContext/isError").asBoolean()).isFalse();
        // The remembered text comes back inside the envelope, escaped as data.
        assertThat(out.at("/getContext/text").asString())
                .startsWith("<memory_context today=\"")
                .containsPattern("<memory id=\"" + id + "\"|\\n\\[" + id + "\\] ")
                .contains("The staging database password rotates every &lt;90> days &amp; lives in Vault.")
                .endsWith("</memory_context>");
        assertThat(out.at("/getContext/structured/token_budget").asInt()).isEqualTo(500);
        assertThat(out.at("/reportUsage/text").asString()).isEqualTo("recorded 1 memory as helpful in session it-1");
        assertThat(out.at("/rememberPinned/isError").asBoolean()).isFalse();
        assertThat(out.at("/get/structured/pinned").asBoolean()).isTrue();
        assertThat(out.at("/get/structured/source").asString()).isEqualTo("onboarding");
        assertThat(out.at("/get/structured/created_at").asString()).isEqualTo("2026-11-01T09:00:00Z");
        assertThat(out.at("/get/structured/expires_at").asString()).isEqualTo("2030-01-01T00:00:00Z");
        assertThat(out.at("/update/isError").asBoolean()).isFalse();
        assertThat(out.at("/update/structured/text").asString()).isEqualTo("Always answer in British English, briefly.");
        assertThat(out.at("/update/structured/pinned").asBoolean()).isTrue();
        assertThat(out.at("/list/isError").asBoolean()).isFalse();
        assertThat(out.at("/list/structured/memories").size()).isEqualTo(1);
        assertThat(out.at("/list/structured/next_offset").asInt()).isEqualTo(1);
        assertThat(out.at("/recall/isError").asBoolean()).isFalse();
        assertThat(out.at("/reportUnknown/text").asString())
                .isEqualTo("recorded 1 memory as helpful in session it-1; no memory has the id ghost");
        assertThat(out.at("/setBudget/isError").asBoolean()).isFalse();
        assertThat(out.at("/forget/structured/found").asBoolean()).isTrue();
        assertThat(out.at("/stats/memories").asLong()).isEqualTo(1);
        assertThat(out.at("/stats/turns").asLong()).isEqualTo(1);
        assertThat(out.at("/stats/embedder_model").asString()).isEqualTo("bge-small-en-v1.5-q");

        String scratch = out.at("/rememberWorking/structured/memory_id").asString();
        assertThat(out.at("/rememberWorking/structured/layer").asString()).isEqualTo("working");
        assertThat(out.at("/rememberWorking/structured/reason").asString()).isEqualTo("tag temp");
        assertThat(ids(out.at("/workingContext/structured/memory_ids"))).contains(scratch);
        int at = ids(out.at("/workingContext/structured/memory_ids")).indexOf(scratch);
        assertThat(out.at("/workingContext/structured/memory_layers").get(at).asString()).isEqualTo("working");
        assertThat(ids(out.at("/otherSession/structured/memory_ids"))).doesNotContain(scratch);
        assertThat(out.at("/working/structured/memories").size()).isEqualTo(1);
        assertThat(out.at("/promoted/isError").asBoolean()).as(out.at("/promoted/text").asString()).isFalse();
        assertThat(out.at("/gotPromoted/structured/scope").asString()).isEqualTo("universal");
        assertThat(out.at("/gotPromoted/structured/expires_at").isNull()).isTrue();

        assertThat(out.at("/bad/isError").asBoolean()).isTrue();
        assertThat(out.at("/bad/text").asString())
                .isEqualTo("get_context: argument 'token_budget' must be in [1, 1000000]: -5");
        assertThat(out.at("/badType/isError").asBoolean()).isTrue();
        assertThat(out.at("/badType/text").asString())
                .isEqualTo("set_budget: argument 'token_budget' must be a whole number: 'lots'")
                .doesNotContain("Exception");
    }

    @Test
    void twoServerProcessesOnOneDatabase_eachFindsWhatTheOtherRemembers_byMeaning() throws Exception {
        requireOnPath("node", "Node.js 18 or newer");
        requireOnPath("npm", "npm");
        Path client = installClient();

        Result r = run(client, null, 300, "node", "two-servers.mjs", JAVA, JAR.toString(),
                dir.resolve("shared.db").toString());

        assertThat(r.exit).as("client failed:\n" + r.stderr).isZero();
        JsonNode out = JSON.readTree(r.stdout);
        assertThat(out.at("/remember/isError").asBoolean()).isFalse();
        // "How often do credentials change?" shares no word with the memory: only the other server's vector finds it.
        assertThat(out.at("/found/ids").toString()).contains("\"rotation\"");
        assertThat(out.at("/forget/isError").asBoolean()).isFalse();
        assertThat(out.at("/gone/ids").toString()).doesNotContain("rotation");
    }

    @Test
    void overHttp_twoOfficialClientsAtOnce_shareMemoriesNotSessions_andOneWithoutTheTokenIsRefused() throws Exception {
        requireOnPath("node", "Node.js 18 or newer");
        requireOnPath("npm", "npm");
        Path client = installClient();
        String token = "it-token-" + Long.toHexString(System.nanoTime()) + "-abcdef";
        Path errors = dir.resolve("server-stderr.txt");
        ProcessBuilder pb = new ProcessBuilder(JAVA, "-jar", JAR.toString(), "mcp", "--http", "--port", "0", "--tools",
                "full", "--db", dir.resolve("http.db").toString()).directory(dir.toFile())
                .redirectOutput(dir.resolve("server-stdout.txt").toFile()).redirectError(errors.toFile());
        pb.environment().put("MEMFAS_MCP_TOKEN", token);
        Process server = pb.start();
        try {
            String url = awaitServing(server, errors);

            Result r = run(client, null, 300, "node", "http-clients.mjs", url, token);

            assertThat(r.exit).as("client failed:\n" + r.stderr).isZero();
            JsonNode out = JSON.readTree(r.stdout);
            assertThat(out.at("/remember/isError").asBoolean()).isFalse();
            // "How often do credentials change?" shares no word with the memory: the other client's vector finds it.
            assertThat(out.at("/found/isError").asBoolean()).isFalse();
            assertThat(out.at("/found/ids").toString()).contains("\"rotation\"");
            assertThat(out.at("/scratch/isError").asBoolean()).isFalse();
            assertThat(out.at("/working/writer").asInt()).isEqualTo(1);
            assertThat(out.at("/working/reader").asInt()).isZero();
            assertThat(out.at("/intruder/refused").asBoolean()).as(out.toString()).isTrue();
            assertThat(out.at("/intruder/message").asString()).contains("no bearer token");
            String log = Files.readString(errors);
            assertThat(log).contains("no bearer token").doesNotContain(token);
        } finally {
            server.destroy(); // SIGTERM: the shutdown hook stops serving and closes the store
            assertThat(server.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        Result stats = run(dir, null, 120, JAVA, "-jar", JAR.toString(), "show", "rotation", "--db",
                dir.resolve("http.db").toString());
        assertThat(stats.exit).as(stats.stderr).isZero();
        assertThat(stats.stdout).contains("rotates every 90 days");
    }

    /** The URL the server says it serves at, once it does. */
    static String awaitServing(Process server, Path errors) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            String log = Files.readString(errors);
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("serving MCP at (http://\\S+/mcp)").matcher(log);
            if (m.find()) {
                return m.group(1);
            }
            if (!server.isAlive()) {
                throw new AssertionError("memfas mcp --http exited with " + server.exitValue() + ":\n" + log);
            }
            Thread.sleep(100);
        }
        throw new AssertionError("memfas mcp --http did not start serving in 120 s:\n" + Files.readString(errors));
    }

    @Test
    void stdinClosedRightAfterRequests_everyReplyIsWritten_stdoutIsOnlyJsonRpc_exitIsClean() throws Exception {
        StringBuilder requests = new StringBuilder();
        requests.append("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}\n");
        requests.append("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
        requests.append("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"remember\","
                + "\"arguments\":{\"text\":\"Deploys happen on Tuesdays.\"}}}\n");
        requests.append("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\",\"params\":{}}\n");
        for (int id = 3; id <= 8; id++) {
            requests.append("{\"jsonrpc\":\"2.0\",\"id\":").append(id).append(",\"method\":\"tools/call\","
                    + "\"params\":{\"name\":\"get_context\",\"arguments\":{\"query\":\"when do deploys happen\","
                    + "\"session_id\":\"raw\"}}}\n");
        }

        Result r = run(dir, requests.toString(), 120, JAVA, "-jar", JAR.toString(), "mcp", "--db",
                dir.resolve("raw.db").toString(), "--model", "none");

        assertThat(r.exit).as(r.stderr).isZero();
        Set<Integer> ids = new HashSet<>();
        for (String line : r.stdout.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode message = JSON.readTree(line);
            assertThat(message.get("jsonrpc").asString()).as(line).isEqualTo("2.0");
            ids.add(message.get("id").asInt());
            if (message.get("id").asInt() == 9) {
                // The default profile: the loop of a turn, in at most 8,000 characters of tools/list.
                JsonNode result = message.get("result");
                assertThat(JSON.writeValueAsString(result).length()).isLessThanOrEqualTo(8_000);
                List<String> names = new ArrayList<>();
                result.get("tools").forEach(t -> names.add(t.get("name").asString()));
                assertThat(names).containsExactly("get_context", "report_usage", "remember", "recall", "forget");
            }
        }
        assertThat(ids).containsExactlyInAnyOrder(1, 2, 3, 4, 5, 6, 7, 8, 9);
        // The jar's manifest allows native access: JDK 24 and newer say nothing of SQLite's System::load.
        assertThat(r.stderr.lines().filter(line -> line.startsWith("WARNING:"))).as(r.stderr).isEmpty();
    }

    @Test
    void stdio_aLineThatIsNoJsonRpc_isAnsweredWithAnError_theNextIsServed_andTheProcessExits() throws Exception {
        String requests = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}\n"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
                + "not json\n"
                + "[{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}]\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"tools/list\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}\n";

        Result r = run(dir, requests, 120, JAVA, "-jar", JAR.toString(), "mcp", "--db",
                dir.resolve("bad.db").toString(), "--model", "none");

        assertThat(r.exit).as(r.stderr).isZero();
        List<JsonNode> errors = new ArrayList<>();
        Set<Integer> answered = new HashSet<>();
        for (String line : r.stdout.split("\n")) {
            JsonNode message = JSON.readTree(line);
            assertThat(message.get("jsonrpc").asString()).as(line).isEqualTo("2.0");
            if (message.get("id").isNull()) {
                errors.add(message);
            } else {
                answered.add(message.get("id").asInt());
            }
        }
        assertThat(errors).extracting(e -> e.at("/error/code").asInt()).containsExactly(-32700, -32600, -32600);
        assertThat(answered).containsExactlyInAnyOrder(1, 2);
    }

    @Test
    void stdio_toolsThatNameNothing_exitsWithBadInput_withoutWaitingForTheClient() throws Exception {
        // Standard input stays open and silent, as a client's does before it writes.
        Process p = new ProcessBuilder(JAVA, "-jar", JAR.toString(), "mcp", "--db", dir.resolve("t.db").toString(),
                "--model", "none", "--tools", "core,memories").redirectOutput(dir.resolve("out.txt").toFile())
                .redirectError(dir.resolve("err.txt").toFile()).start();
        try {
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("exited without input").isTrue();
        } finally {
            p.getOutputStream().close();
            p.destroyForcibly();
        }

        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(Files.readString(dir.resolve("err.txt")))
                .contains("tools: 'memories' is neither a profile (core, state, full) nor a tool");
        assertThat(Files.readString(dir.resolve("out.txt"))).isEmpty();
    }

    private record Result(int exit, String stdout, String stderr) {}

    /** The official client, installed once from the committed lock file, beside the test scripts. */
    private static Path installClient() throws IOException, InterruptedException {
        Path client = MODULE.resolve("target/mcp-client");
        Files.createDirectories(client);
        for (String f : List.of("package.json", "package-lock.json", "client.mjs", "two-servers.mjs",
                "http-clients.mjs")) {
            Files.copy(MODULE.resolve("src/test/mcp-client").resolve(f), client.resolve(f),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        if (!Files.isDirectory(client.resolve("node_modules/@modelcontextprotocol/sdk"))) {
            Result npm = run(client, null, 600, "npm", "ci", "--no-audit", "--no-fund");
            assertThat(npm.exit).as("npm ci failed:\n" + npm.stderr).isZero();
        }
        return client;
    }

    private static boolean annotation(JsonNode out, String tool, String hint) {
        for (JsonNode t : out.get("tools")) {
            if (t.get("name").asString().equals(tool)) {
                return t.get("annotations").get(hint).asBoolean();
            }
        }
        throw new AssertionError("no tool " + tool);
    }

    /**
     * Fails with one line naming what to install when a program this test needs does not run, instead of the stack
     * trace of a failed process start.
     */
    private static List<String> ids(JsonNode array) {
        List<String> ids = new ArrayList<>();
        array.forEach(n -> ids.add(n.asString()));
        return ids;
    }

    private static void requireOnPath(String program, String what) throws InterruptedException {
        String problem;
        try {
            Process p = new ProcessBuilder(program, "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            problem = p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0 ? null : "'" + program + " --version' failed";
        } catch (IOException e) {
            problem = "'" + program + "' is not on the PATH";
        }
        if (problem != null) {
            throw new MissingPrerequisite("McpClientIT drives the MCP server with the official TypeScript client and"
                    + " needs " + what + ": " + problem + " (Debian and Ubuntu: apt-get install nodejs npm)");
        }
    }

    /** A test's missing prerequisite: its message is the whole story, so it carries no stack trace. */
    private static final class MissingPrerequisite extends AssertionError {
        MissingPrerequisite(String message) {
            super(message);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }

    private static Result run(Path workDir, String input, int timeoutSeconds, String... command)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile());
        Path stdout = Files.createTempFile("it-out", ".txt");
        Path stderr = Files.createTempFile("it-err", ".txt");
        pb.redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        Process p = pb.start();
        try (OutputStream in = p.getOutputStream()) {
            if (input != null) {
                in.write(input.getBytes(StandardCharsets.UTF_8));
            }
        }
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish in " + timeoutSeconds + " s:\n"
                    + Files.readString(stderr));
        }
        return new Result(p.exitValue(), Files.readString(stdout), Files.readString(stderr));
    }
}
