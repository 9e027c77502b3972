package dev.memfas.mcp;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import jakarta.servlet.DispatcherType;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.ee11.servlet.FilterHolder;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;

/**
 * Serves a {@link ContextCurator} over the Model Context Protocol's Streamable HTTP transport, so that several clients
 * share one server, one index and one curator: what one remembers, the next call of another finds.
 *
 * <p>The same tools, resource and prompt as {@link MemfasMcpServer}, at {@code http://HOST:PORT/mcp}. It binds to
 * loopback unless told otherwise, and answers only requests addressed to that loopback ({@code Host}) and not sent by
 * web pages of other sites ({@code Origin}). Without tokens it serves one namespace (tenant), the one named or
 * {@code default}; several tenants each hold a token that names theirs ({@link Builder#tokenFile}), and a server bound
 * elsewhere than loopback must have tokens. The memfas sessions a client names ({@code session_id}) are its own: two
 * clients naming the same one do not share its topic, working memory or budget; the memories they remember are shared,
 * within the namespace. Every error, whatever the input, is a JSON-RPC error object.
 *
 * <pre>{@code
 * try (ContextCurator curator = Memfas.newBuilder().store(store).embedder(embedder).build();
 *      MemfasMcpHttpServer server = MemfasMcpHttpServer.builder(curator).port(8707).build()) {
 *     System.err.println("serving " + server.uri());
 *     server.awaitStop(); // until close() is called, from another thread or a shutdown hook
 * }
 * }</pre>
 *
 * <p>The server does not close the curator: whoever built it does.
 */
public final class MemfasMcpHttpServer implements AutoCloseable {
    /** The port when none is set. */
    public static final int DEFAULT_PORT = 8707;
    /** The path of the MCP endpoint. */
    public static final String ENDPOINT = "/mcp";
    /** The shortest bearer token accepted: 16 characters, about 96 bits when drawn from base64. */
    public static final int MIN_TOKEN_LENGTH = 16;

    /**
     * Connections the kernel holds for the server before it accepts them: the default of 50 resets a burst of a few
     * hundred clients, 4,096 does not reset 1,500 (Linux caps it at net.core.somaxconn, 4,096 by default since 5.4).
     */
    private static final int ACCEPT_QUEUE = 4_096;
    /** How long {@link #close()} waits for the calls in progress, at most. */
    private static final long STOP_MILLIS = 5_000;

    private final McpSyncServer server;
    private final JettyServing jetty;
    private final URI uri;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final RequestDrain requests = new RequestDrain();
    private volatile boolean closed;

    private MemfasMcpHttpServer(Builder b) {
        McpJsonMapper json = McpJsonDefaults.getMapper();
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(json).mcpEndpoint(ENDPOINT).maxRequestSize(JsonRpcGate.MAX_BODY_BYTES)
                // The namespaces ClientAccess found the caller may use travel with each call to the tools.
                .contextExtractor(request -> McpTransportContext.create(
                        Map.of(Tenants.CONTEXT_KEY, request.getAttribute(Tenants.CONTEXT_KEY))))
                .build();
        this.server = McpFeatures.offer(McpServer.sync(transport), b.options.toolsServed(), json, b.options.version, true)
                .build();

        try {
            this.jetty = new JettyServing("MCP", "memfas-mcp-http", b.host, b.port, ACCEPT_QUEUE, port -> {
                ServletContextHandler context = new ServletContextHandler();
                context.setContextPath("/");
                ServletHolder mcp = new ServletHolder("mcp", transport);
                mcp.setAsyncSupported(true); // the transport streams replies and notifications as server-sent events
                context.addServlet(mcp, ENDPOINT);
                // In this order, each around the next: the drain counts every request, access refuses callers before
                // their body is read, the gate checks the body and turns every error into JSON-RPC.
                for (jakarta.servlet.Filter filter : List.of(requests, new ClientAccess(json, b.tokens, b.open, b.host,
                        b.loopback, port), new JsonRpcGate(json))) {
                    FilterHolder holder = new FilterHolder(filter);
                    holder.setAsyncSupported(true);
                    context.addFilter(holder, "/*", EnumSet.of(DispatcherType.REQUEST));
                }
                return context;
            });
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        this.uri = jetty.root().resolve(ENDPOINT);
    }

    /** Starts a server with options. */
    public static Builder builder(ContextCurator curator) {
        return new Builder(curator);
    }

    /** Where clients reach it, such as {@code http://127.0.0.1:8707/mcp}. */
    public URI uri() {
        return uri;
    }

    /** The port it listens on: the one asked for, or the one chosen when port 0 was asked for. */
    public int port() {
        return uri.getPort();
    }

    /**
     * Blocks until {@link #close()} is called.
     *
     * @throws InterruptedException if interrupted while waiting
     */
    public void awaitStop() throws InterruptedException {
        stopped.await();
    }

    /** Like {@link #awaitStop()}, for at most the given time; returns whether it stopped. */
    public boolean awaitStop(long timeout, TimeUnit unit) throws InterruptedException {
        return stopped.await(timeout, unit);
    }

    /**
     * Stops taking requests, lets those in progress finish (for at most five seconds) and closes every client's
     * session. Idempotent. Does not close the curator.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            // The calls in progress are answered first; closing the sessions then ends the clients' event streams.
            requests.drain(STOP_MILLIS);
            server.closeGracefully();
        } finally {
            jetty.stop();
            stopped.countDown();
        }
    }

    /** Options of a {@link MemfasMcpHttpServer}. Not thread-safe. */
    public static final class Builder {
        private final ServerOptions options;
        private String host = "127.0.0.1";
        private int port = DEFAULT_PORT;
        private String bearerToken;
        private Path tokenFile;
        // Set by build(): what ClientAccess is made of.
        private AccessTokens tokens;
        private Tenants open;
        private boolean loopback;

        private Builder(ContextCurator curator) {
            this.options = new ServerOptions(curator);
        }

        /**
         * The address to bind to: {@code 127.0.0.1} when not set. Any other than a loopback address needs a
         * {@linkplain #bearerToken bearer token}.
         */
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
         * The token every request must carry as {@code Authorization: Bearer TOKEN}; its holder works in the namespace
         * served ({@link #namespace}, else {@code default}). None when not set, which only a server on loopback may do.
         * For several tenants, each with a token of its own, see {@link #tokenFile}.
         *
         * @throws IllegalArgumentException if shorter than {@value #MIN_TOKEN_LENGTH} characters or holding white
         *     space or control characters (the value itself is never shown)
         */
        public Builder bearerToken(String token) {
            AccessTokens.checkToken(Objects.requireNonNull(token, "token"), "bearer token");
            this.bearerToken = token;
            return this;
        }

        /**
         * Serves several tenants, each holding a token that names the namespaces it may use: a file of one client a
         * line, its token and then its namespaces, comma-separated, the first its default (a token alone works in the
         * namespace served). Lines starting with {@code #} are comments. A call naming a namespace its token does not
         * list is refused, and an MCP session opened with one token is unknown to every other. Read when the server
         * starts; other users may not read it (mode 600).
         *
         * <pre>
         * 3q2+7w-LongRandomTokenOfTeamA    team-a
         * Jx9_AnotherLongRandomTokenOfOps  ops,team-a
         * </pre>
         */
        public Builder tokenFile(Path file) {
            this.tokenFile = Objects.requireNonNull(file, "file");
            return this;
        }

        /**
         * The budget of {@code get_context} calls that name none; the curator's default when not set.
         *
         * @throws IllegalArgumentException if not in [1, 1000000]
         */
        public Builder defaultBudget(int tokens) {
            options.defaultBudget(tokens);
            return this;
        }

        /**
         * Where the agents work: the project and language of calls that name none, as in
         * {@link MemfasMcpServer.Builder#workingContext}.
         *
         * @throws IllegalArgumentException if a name is blank, too long or holds control characters
         */
        public Builder workingContext(String project, String language) {
            options.workingContext(project, language);
            return this;
        }

        /**
         * The namespace (tenant) served: every call works in it, and a call naming another is refused. {@code default}
         * when not set; a server of several namespaces needs a {@linkplain #tokenFile token file}.
         *
         * @throws IllegalArgumentException if the name is blank, too long or holds control characters
         */
        public Builder namespace(String namespace) {
            options.namespace(namespace);
            return this;
        }

        /**
         * The tools offered, as in {@link MemfasMcpServer.Builder#tools}; {@code core} when not set.
         *
         * @throws IllegalArgumentException naming a part that is neither a profile nor a tool
         */
        public Builder tools(String selection) {
            options.tools(selection);
            return this;
        }

        /** The version announced to clients. */
        public Builder version(String version) {
            options.version(version);
            return this;
        }

        /**
         * Binds and starts serving.
         *
         * @throws IllegalStateException if the host is not a loopback address and no token was set, or both a bearer
         *     token and a token file were
         * @throws IllegalArgumentException if the token file holds no token, a malformed line, or may be read by other
         *     users
         * @throws UncheckedIOException if the host is unknown, the port cannot be bound (taken, or not allowed) or the
         *     token file cannot be read
         */
        public MemfasMcpHttpServer build() {
            String served = options.namespace != null ? options.namespace : Memory.DEFAULT_NAMESPACE;
            HttpAccess access = HttpAccess.of(host, bearerToken, tokenFile, served, "MCP");
            loopback = access.loopback();
            open = access.open();
            tokens = access.tokens();
            return new MemfasMcpHttpServer(this);
        }
    }
}
