package dev.memfas.cli;

import dev.memfas.core.ContextDetector;
import dev.memfas.mcp.MemfasMcpServer;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code memfas mcp}: the MCP server on standard input and output. */
@Command(name = "mcp", description = "Serve the MCP server on standard input and output.")
final class McpCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @Option(names = "--budget", paramLabel = "TOKENS", description = "Default budget of get_context.")
    Integer budget;

    @Option(names = "--detect", description = "Take the project and language of the working directory (as `context"
            + " --detect` does) for get_context and memory_context calls that name none.")
    boolean detect;

    @Override
    public Integer call() throws Exception {
        try (Workspace w = main.open(Workspace.Access.WRITE, true)) {
            MemfasMcpServer.Builder b = MemfasMcpServer.builder(w.curator);
            if (budget != null) {
                b.defaultBudget(budget);
            }
            String namespace = main.namespaceGiven();
            if (namespace != null) {
                // A tenant's server: its calls cannot reach another namespace.
                b.namespace(namespace);
            }
            if (detect) {
                ContextDetector.Detected here = ContextDetector.detect(Path.of("").toAbsolutePath());
                b.workingContext(here.project(), here.language());
                main.err().println("memfas: working in project " + here.project() + ", language " + here.language());
            }
            try (MemfasMcpServer server = b.build()) {
                // The model loads beside the handshake, so that initialize is answered at once and the first
                // get_context seldom waits for it (loading takes about a second; a client's first call comes later).
                Thread loader = new Thread(() -> {
                    try {
                        w.loadModel();
                    } catch (RuntimeException e) {
                        main.err().println("memfas: " + e.getMessage());
                    }
                }, "memfas-model-loader");
                loader.setDaemon(true);
                loader.start();
                server.awaitClientExit();
            }
        }
        return Main.OK;
    }
}
