package dev.memfas.cli;

import dev.memfas.mcp.MemfasMcpHttpServer;
import dev.memfas.mcp.MemfasMcpServer;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code memfas mcp}: the MCP server on standard input and output, or with {@code --http} over Streamable HTTP for
 * several clients at once.
 */
@Command(name = "mcp", description = "Serve the MCP server on standard input and output, or over HTTP with --http.")
final class McpCommand implements Callable<Integer> {
    /** The environment variable a bearer token may come from, so it shows in no process list. */
    static final String TOKEN_VARIABLE = "MEMFAS_MCP_TOKEN";

    @CommandLine.ParentCommand
    Main main;

    private final StopHook stopHook = new StopHook();
    /** Counted down once the model has loaded, or failed to: the calls to the curator wait for it (ModelGate). */
    private final CountDownLatch modelSettled = new CountDownLatch(1);

    @Option(names = "--budget", paramLabel = "TOKENS", description = "Default budget of get_context.")
    Integer budget;

    @Option(names = "--detect", description = "Take the project and language of the working directory (as `context"
            + " --detect` does) for get_context and memory_context calls that name none.")
    boolean detect;

    @Option(names = "--tools", paramLabel = "LIST", description = "The tools offered: profiles (core, state, full) and"
            + " tool names, comma-separated (default: the config's mcp.tools, else core).")
    String tools;

    @Option(names = "--http", description = "Serve over Streamable HTTP at http://HOST:PORT/mcp, for several clients"
            + " sharing one server, until stopped (Ctrl-C).")
    boolean http;

    @Option(names = "--port", paramLabel = "N", description = "Port of --http (default 8707; 0 for any free one).")
    Integer port;

    @Option(names = "--host", paramLabel = "ADDRESS", description = "Address --http binds to (default 127.0.0.1);"
            + " any but loopback needs a bearer token.")
    String host;

    @Option(names = "--token-file", paramLabel = "FILE", description = "The bearer tokens HTTP requests must carry, one"
            + " client a line: TOKEN [NAMESPACE,...], the first namespace its default (a token alone: the namespace"
            + " served); mode 600 (default: one token, the " + TOKEN_VARIABLE + " environment variable, if set).")
    Path tokenFile;

    @Override
    public Integer call() throws Exception {
        if (!http && (port != null || host != null || tokenFile != null)) {
            throw new CommandLine.ParameterException(main.spec.commandLine(),
                    "--port, --host and --token-file go with --http");
        }
        // Answered before anything is opened: a host waits for this answer before it shows the server as ready.
        EarlyHandshake handshake = http ? null : EarlyHandshake.start(System.in, System.out, Main.VERSION);
        ContextDetector.Detected here = null;
        if (detect) {
            here = ContextDetector.detect(Path.of("").toAbsolutePath());
            main.err().println("memfas: working in project " + here.project() + ", language " + here.language());
        }
        // A tenant's server: its calls cannot reach another namespace.
        String namespace = main.namespaceGiven();
        String offered = tools != null ? tools : main.settings().mcpTools;
        try (Workspace w = main.open(Workspace.Access.WRITE, true)) {
            return http ? serveHttp(w, here, namespace, offered) : serveStdio(w, here, namespace, offered, handshake);
        } finally {
            stopHook.storeClosed();
        }
    }

    private Integer serveStdio(Workspace w, ContextDetector.Detected here, String namespace, String offered,
            EarlyHandshake handshake) throws Exception {
        MemfasMcpServer.Builder b = MemfasMcpServer.builder(ModelGate.waitingFor(w.curator, modelSettled))
                .version(Main.VERSION)
                .input(handshake.serverInput()).output(handshake.serverOutput());
        if (offered != null) {
            b.tools(offered);
        }
        if (budget != null) {
            b.defaultBudget(budget);
        }
        if (namespace != null) {
            b.namespace(namespace);
        }
        if (here != null) {
            b.workingContext(here.project(), here.language());
        }
        try (MemfasMcpServer server = b.build()) {
            loadModelBeside(w);
            server.awaitClientExit();
        }
        return Main.OK;
    }

    private Integer serveHttp(Workspace w, ContextDetector.Detected here, String namespace, String offered)
            throws Exception {
        MemfasMcpHttpServer.Builder b = MemfasMcpHttpServer.builder(ModelGate.waitingFor(w.curator, modelSettled))
                .version(Main.VERSION);
        if (offered != null) {
            b.tools(offered);
        }
        if (budget != null) {
            b.defaultBudget(budget);
        }
        if (namespace != null) {
            b.namespace(namespace);
        }
        if (here != null) {
            b.workingContext(here.project(), here.language());
        }
        b.host(host != null ? host : "127.0.0.1").port(port != null ? port : MemfasMcpHttpServer.DEFAULT_PORT);
        String token = tokenFile != null ? null : tokenFromEnvironment();
        if (tokenFile != null) {
            b.tokenFile(tokenFile);
        } else if (token != null) {
            b.bearerToken(token);
        }
        MemfasMcpHttpServer started;
        try {
            started = b.build();
        } catch (java.io.UncheckedIOException e) {
            throw new IllegalStateException(e.getCause().getMessage(), e);
        }
        try (MemfasMcpHttpServer server = started) {
            stopHook.install(server::close, "memfas-mcp-stop");
            main.err().println("memfas: serving MCP at " + server.uri()
                    + (token != null || tokenFile != null ? " (bearer token required)" : "") + "; Ctrl-C stops");
            main.err().flush();
            loadModelBeside(w);
            server.awaitStop();
        }
        return Main.OK;
    }

    static String tokenFromEnvironment() {
        String fromEnvironment = System.getenv(TOKEN_VARIABLE);
        return fromEnvironment == null || fromEnvironment.isBlank() ? null : fromEnvironment.trim();
    }

    /**
     * The model loads beside the handshake, so that initialize is answered at once and the first get_context seldom
     * waits for it (loading takes about a second; a client's first call comes later). A call that comes sooner waits
     * for the load before it reaches the curator ({@link ModelGate}).
     */
    private void loadModelBeside(Workspace w) {
        Thread loader = new Thread(() -> {
            try {
                w.loadModel();
            } catch (RuntimeException e) {
                main.err().println("memfas: " + e.getMessage());
            } finally {
                modelSettled.countDown();
            }
        }, "memfas-model-loader");
        loader.setDaemon(true);
        loader.start();
    }
}
