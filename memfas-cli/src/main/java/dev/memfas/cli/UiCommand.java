package dev.memfas.cli;

import dev.memfas.mcp.MemfasInspector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code memfas ui}: the inspector, a local web page to look into memory ({@link MemfasInspector}), until stopped. Who
 * may call it follows the rules of {@code memfas mcp --http}, with the same token options.
 */
@Command(name = "ui", description = "Serve the inspector, a web page on this machine: browse, search and filter"
        + " memories, see their history, edit, pin, forget and restore them, replay a turn, read the telemetry"
        + " report; until stopped (Ctrl-C).")
final class UiCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    private final StopHook stopHook = new StopHook();

    @Option(names = "--port", paramLabel = "N", description = "Port (default 8708; 0 for any free one).")
    Integer port;

    @Option(names = "--host", paramLabel = "ADDRESS", description = "Address to bind to (default 127.0.0.1); any but"
            + " loopback needs a bearer token.")
    String host;

    @Option(names = "--token-file", paramLabel = "FILE", description = "The bearer tokens calls must carry, as for"
            + " `memfas mcp --http`: one client a line, TOKEN [NAMESPACE,...]; mode 600 (default: one token, the "
            + McpCommand.TOKEN_VARIABLE + " environment variable, if set).")
    Path tokenFile;

    @Override
    public Integer call() throws Exception {
        String namespace = main.namespaceGiven();
        try (Workspace w = main.open(Workspace.Access.WRITE, true)) {
            MemfasInspector.Builder b = MemfasInspector.builder(w.curator)
                    .host(host != null ? host : "127.0.0.1")
                    .port(port != null ? port : MemfasInspector.DEFAULT_PORT);
            if (namespace != null) {
                b.namespace(namespace);
            }
            String token = tokenFile != null ? null : McpCommand.tokenFromEnvironment();
            if (tokenFile != null) {
                b.tokenFile(tokenFile);
            } else if (token != null) {
                b.bearerToken(token);
            }
            Path log = main.settings().telemetry;
            if (log != null) {
                b.report(ns -> report(w, log, ns));
            }
            MemfasInspector started;
            try {
                started = b.build();
            } catch (java.io.UncheckedIOException e) {
                throw new IllegalStateException(e.getCause().getMessage(), e);
            }
            try (MemfasInspector inspector = started) {
                stopHook.install(inspector::close, "memfas-ui-stop");
                main.err().println("memfas: inspector at " + inspector.uri()
                        + (token != null || tokenFile != null ? " (bearer token required)" : "") + "; Ctrl-C stops");
                main.err().flush();
                inspector.awaitStop();
            }
        } finally {
            stopHook.storeClosed();
        }
        return Main.OK;
    }

    /** The telemetry report of a namespace, as {@code memfas report} writes it; empty before the log exists. */
    private static String report(Workspace w, Path log, String namespace) {
        if (!Files.isRegularFile(log)) {
            return "";
        }
        ReportCommand.Counted counted = ReportCommand.read(log, Instant.MIN, namespace);
        return HtmlReport.render(counted.numbers(), "The whole log, namespace " + namespace,
                ReportCommand.texts(w), Instant.now());
    }
}
