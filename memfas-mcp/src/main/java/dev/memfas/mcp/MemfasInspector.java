package dev.memfas.mcp;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import io.modelcontextprotocol.json.McpJsonDefaults;
import jakarta.servlet.DispatcherType;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import org.eclipse.jetty.ee11.servlet.FilterHolder;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;

/**
 * A web page to look into a curator's memory: browse, search and filter the memories of a namespace, see one's history
 * and supersession chain, edit, pin, forget and restore it, replay a turn (what {@code getContext} would send for a
 * query, each item with its score's factors and every candidate left out with the reason), and the telemetry report's
 * charts. The page is three files served from the jar, with nothing fetched from elsewhere and no build step; every
 * text of the store is shown as text, never read as markup.
 *
 * <p>Who may call it follows the rules of {@link MemfasMcpHttpServer}: loopback unless told otherwise, only requests
 * addressed to that loopback ({@code Host}) and not sent by pages of other sites ({@code Origin}); without tokens one
 * namespace, the one named or {@code default}; a bearer token, or a token file of tenants each with their namespaces,
 * and a server bound elsewhere than loopback must have one. The page asks for the token, and keeps it for the browser
 * tab only.
 *
 * <pre>{@code
 * try (MemfasInspector inspector = MemfasInspector.builder(curator).port(8708).build()) {
 *     System.err.println("open " + inspector.uri());
 *     inspector.awaitStop();
 * }
 * }</pre>
 *
 * <p>It does not close the curator: whoever built it does.
 */
public final class MemfasInspector implements AutoCloseable {
    /** The port when none is set: the one after MCP's. */
    public static final int DEFAULT_PORT = 8708;

    private final JettyServing jetty;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean closed;

    private MemfasInspector(Builder b, HttpAccess access) {
        this.jetty = new JettyServing("the inspector", "memfas-inspector", b.host, b.port, 0, port -> {
            ServletContextHandler context = new ServletContextHandler();
            context.setContextPath("/");
            context.addServlet(new ServletHolder("page", new InspectorPage()), "/");
            context.addServlet(new ServletHolder("api", new InspectorApi(b.curator, b.report)), "/api/*");
            // The page itself holds nothing of the store; every call that reads or changes memories passes the same
            // access rules as MCP over HTTP.
            context.addFilter(new FilterHolder(new ClientAccess(McpJsonDefaults.getMapper(), access.tokens(),
                    access.open(), b.host, access.loopback(), port)), "/api/*", EnumSet.of(DispatcherType.REQUEST));
            return context;
        });
    }

    /** Starts an inspector of a curator, with options. */
    public static Builder builder(ContextCurator curator) {
        return new Builder(curator);
    }

    /** Where a browser opens it, such as {@code http://127.0.0.1:8708/}. */
    public URI uri() {
        return jetty.root();
    }

    /** The port it listens on: the one asked for, or the one chosen when port 0 was asked for. */
    public int port() {
        return jetty.root().getPort();
    }

    /**
     * Blocks until {@link #close()} is called.
     *
     * @throws InterruptedException if interrupted while waiting
     */
    public void awaitStop() throws InterruptedException {
        stopped.await();
    }

    /** Stops serving, letting the requests in progress finish for at most a second. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        jetty.stop();
        stopped.countDown();
    }

    /** Options of a {@link MemfasInspector}. Not thread-safe. */
    public static final class Builder {
        private final ContextCurator curator;
        private String host = "127.0.0.1";
        private int port = DEFAULT_PORT;
        private String bearerToken;
        private Path tokenFile;
        private String namespace = Memory.DEFAULT_NAMESPACE;
        private Function<String, String> report;

        private Builder(ContextCurator curator) {
            this.curator = Objects.requireNonNull(curator, "curator");
        }

        /** The address to bind to: {@code 127.0.0.1} when not set. Any other needs a token. */
        public Builder host(String host) {
            this.host = HttpAccess.host(host);
            return this;
        }

        /**
         * The port, {@value #DEFAULT_PORT} when not set; 0 for any free port ({@link #port()} says which).
         *
         * @throws IllegalArgumentException if not in [0, 65535]
         */
        public Builder port(int port) {
            this.port = HttpAccess.port(port);
            return this;
        }

        /**
         * The token every call must carry, as {@link MemfasMcpHttpServer.Builder#bearerToken}.
         *
         * @throws IllegalArgumentException if shorter than 16 characters or holding white space or control characters
         */
        public Builder bearerToken(String token) {
            AccessTokens.checkToken(Objects.requireNonNull(token, "token"), "bearer token");
            this.bearerToken = token;
            return this;
        }

        /** Tenants, each with a token and its namespaces, as {@link MemfasMcpHttpServer.Builder#tokenFile}. */
        public Builder tokenFile(Path file) {
            this.tokenFile = Objects.requireNonNull(file, "file");
            return this;
        }

        /**
         * The namespace served to callers without a token file; {@code default} when not set.
         *
         * @throws IllegalArgumentException if the name is blank, too long or holds control characters
         */
        public Builder namespace(String namespace) {
            Tenants.only(Objects.requireNonNull(namespace, "namespace"));
            this.namespace = namespace;
            return this;
        }

        /**
         * The telemetry report of a namespace, as one self-contained HTML page without script (the command's
         * {@code memfas report}), shown in the page's telemetry view; none when not set.
         */
        public Builder report(Function<String, String> htmlOfNamespace) {
            this.report = Objects.requireNonNull(htmlOfNamespace, "htmlOfNamespace");
            return this;
        }

        /**
         * Binds and starts serving.
         *
         * @throws IllegalStateException if the host is not a loopback address and no token was set, or both a bearer
         *     token and a token file were
         * @throws IllegalArgumentException if the token file holds no token, a malformed line, or may be read by other
         *     users
         * @throws UncheckedIOException if the host is unknown, the port cannot be bound or the token file read
         */
        public MemfasInspector build() {
            return new MemfasInspector(this, HttpAccess.of(host, bearerToken, tokenFile, namespace, "the inspector"));
        }
    }
}
