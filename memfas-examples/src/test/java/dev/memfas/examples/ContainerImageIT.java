package dev.memfas.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The container image of {@code memfas mcp --http}, built as docs/container.md says (Jib, {@code -Pimage}, no container
 * engine), loaded into podman and driven by the MCP Java SDK's client: what one container remembers on its volume, the
 * next container on that volume finds.
 *
 * <p>No registry can be reached here, so the base image is made from this machine's JDK (src/test/container/
 * base-image.sh) and given to the build as {@code tar://}; everything memfas adds to it is what a user's image holds.
 * podman runs with runc, no cgroups of its own and no default resource limits (containers.conf below), which is what
 * this kind of machine allows.
 */
final class ContainerImageIT {
    private static final Path WORK = Path.of("target/container-image").toAbsolutePath();
    private static final String TOKEN = "container-token-0123456789abcdef";
    private static final String IMAGE = "localhost/memfas:" + ThisBuild.VERSION;

    @Test
    void image_servesMcpOverHttp_withAToken_andKeepsMemoriesOnItsVolume() throws Exception {
        requireOnPath("podman");
        requireOnPath("runc");
        Files.createDirectories(WORK);
        Path conf = Files.writeString(WORK.resolve("containers.conf"),
                "[containers]\ndefault_ulimits = []\n[engine]\ncgroup_manager = \"cgroupfs\"\n");

        // The base image, and the image built from it by the project's own build.
        check(podman(conf, 300, "sh", ThisBuild.ROOT.resolve("memfas-examples/src/test/container/base-image.sh")
                .toString(), System.getProperty("java.home"), WORK.toString()), "base image");
        Path project = copyOfTheCommand();
        ThisBuild.Result build = ThisBuild.maven(ThisBuild.repository(WORK), project.resolve("pom.xml"), "package",
                "-Pimage", "-Dmemfas.image.base=tar://" + WORK.resolve("base.tar"));
        assertThat(build.exit()).as("the image build:\n" + build.out()).isZero();
        Path image = project.resolve("target/memfas-image.tar");
        assertThat(image).isRegularFile();

        String volume = "memfas-it-" + ProcessHandle.current().pid();
        podman(conf, 60, "podman", "rmi", "-f", IMAGE);
        check(podman(conf, 300, "podman", "load", "-i", image.toString()), "podman load");
        check(podman(conf, 60, "podman", "volume", "create", volume), "volume");
        try {
            // The image as a user runs it: its own command, every address, the token from the environment.
            try (Container first = Container.start(conf, volume);
                 McpSyncClient client = first.client()) {
                McpSchema.CallToolResult remembered = client.callTool(McpSchema.CallToolRequest.builder("remember")
                        .arguments(Map.of("text", "The staging database password rotates every 90 days.", "id",
                                "rotation")).build());
                assertThat(remembered.isError()).as(text(remembered)).isFalse();
                McpSchema.CallToolResult context = client.callTool(McpSchema.CallToolRequest.builder("get_context")
                        .arguments(Map.of("query", "How often do credentials change?", "session_id", "s1")).build());
                // Shares no word with the memory: the model in the image found it by meaning.
                assertThat(text(context)).contains("rotates every 90 days");
            }
            try (Container second = Container.start(conf, volume);
                 McpSyncClient client = second.client()) {
                McpSchema.CallToolResult recalled = client.callTool(McpSchema.CallToolRequest.builder("recall")
                        .arguments(Map.of("query", "staging password")).build());
                assertThat(text(recalled)).contains("[rotation]");
            }
        } finally {
            podman(conf, 60, "podman", "volume", "rm", "-f", volume);
            podman(conf, 60, "podman", "rmi", "-f", IMAGE);
        }
    }

    /** The command's module as a user's checkout has it, less its tests, beside nothing else. */
    private static Path copyOfTheCommand() throws Exception {
        Path copy = WORK.resolve("memfas-cli");
        if (Files.exists(copy)) {
            try (Stream<Path> old = Files.walk(copy)) {
                old.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(java.io.File::delete);
            }
        }
        Path cli = ThisBuild.ROOT.resolve("memfas-cli");
        try (Stream<Path> files = Files.walk(cli.resolve("src/main"))) {
            for (Path f : files.toList()) {
                Path target = copy.resolve(cli.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target);
                }
            }
        }
        // Its test dependencies (an embedded PostgreSQL, a fuzzer) are not needed to build the image.
        String pom = Files.readString(cli.resolve("pom.xml"), StandardCharsets.UTF_8)
                .replaceAll("(?s)<dependency>(?:(?!</dependency>).)*<scope>test</scope>(?:(?!</dependency>).)*"
                        + "</dependency>", "");
        Files.writeString(copy.resolve("pom.xml"), pom);
        return copy;
    }

    /** One running container of the image, on the host's network, removed when closed. */
    private record Container(Path conf, String name, int port) implements AutoCloseable {
        static Container start(Path conf, String volume) throws Exception {
            String name = volume + "-" + System.nanoTime();
            check(podman(conf, 120, "podman", "--runtime", "runc", "run", "-d", "--name", name, "--network", "host",
                    "-e", "MEMFAS_MCP_TOKEN=" + TOKEN, "-v", volume + ":/data", IMAGE), "podman run");
            Container c = new Container(conf, name, 8707);
            c.awaitServing();
            return c;
        }

        private void awaitServing() throws Exception {
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (System.nanoTime() < deadline) {
                String log = podman(conf, 30, "podman", "logs", name).out();
                Matcher m = Pattern.compile("serving MCP at http://0\\.0\\.0\\.0:(\\d+)/mcp").matcher(log);
                if (m.find()) {
                    assertThat(Integer.parseInt(m.group(1))).isEqualTo(port);
                    assertThat(log).contains("(bearer token required)");
                    return;
                }
                String state = podman(conf, 30, "podman", "inspect", "-f", "{{.State.Running}}", name).out().strip();
                if (!state.equals("true")) {
                    throw new AssertionError("the container stopped before serving:\n" + log);
                }
                Thread.sleep(250);
            }
            throw new AssertionError("the container did not serve in 120 s:\n" + podman(conf, 30, "podman", "logs",
                    name).out());
        }

        McpSyncClient client() {
            McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + port)
                    .endpoint("/mcp").requestBuilder(HttpRequest.newBuilder().header("Authorization",
                            "Bearer " + TOKEN)).build()).requestTimeout(Duration.ofSeconds(60)).build();
            client.initialize();
            return client;
        }

        @Override
        public void close() throws Exception {
            // podman stop sends SIGTERM: the server answers what is in progress and closes the store.
            ThisBuild.Result stop = podman(conf, 60, "podman", "stop", "-t", "10", name);
            podman(conf, 60, "podman", "rm", "-f", name);
            check(stop, "podman stop");
        }
    }

    private static ThisBuild.Result podman(Path conf, int timeoutSeconds, String... command) throws Exception {
        List<String> withConf = new ArrayList<>(List.of("env", "CONTAINERS_CONF=" + conf));
        withConf.addAll(List.of(command));
        return ThisBuild.run(WORK, timeoutSeconds, withConf.toArray(String[]::new));
    }

    private static void check(ThisBuild.Result r, String what) {
        assertThat(r.exit()).as(what + ":\n" + r.out()).isZero();
    }

    private static String text(McpSchema.CallToolResult r) {
        return ((McpSchema.TextContent) r.content().get(0)).text();
    }

    /** Fails with one line naming what to install when a program this test needs is missing. */
    private static void requireOnPath(String program) throws Exception {
        boolean found;
        try {
            found = ThisBuild.run(WORK.getParent(), 60, program, "--version").exit() == 0;
        } catch (java.io.IOException e) {
            found = false;
        }
        if (!found) {
            throw new AssertionError("ContainerImageIT runs the image with podman and runc, and '" + program
                    + "' does not run (Debian and Ubuntu: apt-get install podman runc)");
        }
    }
}
