package dev.memfas.mcp;

import dev.memfas.ContextCurator;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.json.McpJsonMapper;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Serves a {@link ContextCurator} over the Model Context Protocol on standard input and output, so that an agent in
 * any language can ask for curated context.
 *
 * <p>Tools: by default {@code get_context}, {@code remember}, {@code recall}, {@code report_usage} and
 * {@code forget}; with {@link Builder#tools} also those about state, memory over time, layers and triggers
 * (docs/mcp.md); resource {@code memfas://stats}. Arguments are read leniently ({@code "2000"} for 2000,
 * {@code "true"} for true); a bad call gets a tool error with a one-line message, and a line that is no JSON-RPC
 * message gets a JSON-RPC error, after which the server reads on. Standard output carries only JSON-RPC messages, as
 * well-formed UTF-8; logs belong on standard error.
 *
 * <pre>{@code
 * try (ContextCurator curator = Memfas.newBuilder().store(store).embedder(embedder).build();
 *      MemfasMcpServer server = MemfasMcpServer.stdio(curator)) {
 *     server.awaitClientExit(); // until the client closes standard input
 * }
 * }</pre>
 *
 * <p>The server does not close the curator: whoever built it does.
 */
public final class MemfasMcpServer implements AutoCloseable {
    /** The server name announced to clients. */
    public static final String NAME = "memfas";
    /** What the server tells a client in its answer to {@code initialize}: how an agent uses memfas. */
    public static final String INSTRUCTIONS = "Call get_context with the user's message at the start of every turn and"
            + " put the returned <memory_context> block in your prompt. Use remember for facts worth keeping, and"
            + " report_usage for the memories that helped.";
    /** The URI of the statistics resource. */
    public static final String STATS_URI = "memfas://stats";

    private final McpSyncServer server;
    private final StdioTransport transport;
    private volatile boolean closed;

    private MemfasMcpServer(Builder b) {
        MemfasTools tools = b.options.toolsServed();
        McpJsonMapper json = McpJsonDefaults.getMapper();
        this.transport = new StdioTransport(json, b.input, b.output);
        this.server = McpFeatures.offer(McpServer.sync(transport), tools, json, b.options.version, false).build();
    }

    /** A server on this process's standard input and output, with the curator's own default budget. */
    public static MemfasMcpServer stdio(ContextCurator curator) {
        return builder(curator).build();
    }

    /** Starts a server with options. */
    public static Builder builder(ContextCurator curator) {
        return new Builder(curator);
    }

    /** Options of a {@link MemfasMcpServer}. Not thread-safe. */
    public static final class Builder {
        private final ServerOptions options;
        private InputStream input = System.in;
        private OutputStream output = System.out;

        private Builder(ContextCurator curator) {
            this.options = new ServerOptions(curator);
        }

        /** Where requests come from; standard input when not set. */
        public Builder input(InputStream input) {
            this.input = Objects.requireNonNull(input, "input");
            return this;
        }

        /** Where replies go; standard output when not set. Nothing else may write to it. */
        public Builder output(OutputStream output) {
            this.output = Objects.requireNonNull(output, "output");
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
         * Where the agent works: the project and language of {@code get_context} calls that name none, and the scope
         * of {@code memory_context} calls that name none (the project's, else the language's); each may be null, as
         * {@code ContextDetector.detect} finds them. None when not set.
         *
         * @throws IllegalArgumentException if a name is blank, too long or holds control characters
         */
        public Builder workingContext(String project, String language) {
            options.workingContext(project, language);
            return this;
        }

        /**
         * Serves one namespace (tenant) only: calls that name none work in it, and a call that names another is refused
         * with a tool error. When not set, each call may name its own (default {@code default}).
         *
         * @throws IllegalArgumentException if the name is blank, too long or holds control characters
         */
        public Builder namespace(String namespace) {
            options.namespace(namespace);
            return this;
        }

        /**
         * The tools offered: profiles and tool names, comma-separated. {@code core} (the default) is the loop of a
         * turn, {@code get_context}, {@code remember}, {@code recall}, {@code report_usage} and {@code forget}, each with
         * its everyday arguments; {@code state} adds the key-value state tools and {@code offer}; {@code full} is every
         * tool with every argument; a tool named on its own comes with all its arguments ({@code "core,time"}). A
         * client puts every tool definition into every request: {@code core} is under 8,000 characters of
         * {@code tools/list}, {@code full} about five times that (docs/mcp.md).
         *
         * @throws IllegalArgumentException naming a part that is neither a profile nor a tool, or if none is named
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

        /** Starts serving: requests are read on a background thread from now on. */
        public MemfasMcpServer build() {
            return new MemfasMcpServer(this);
        }
    }

    /**
     * Blocks until the client closes the input, then lets replies in progress finish and stops the server.
     *
     * @throws InterruptedException if interrupted while waiting
     */
    public void awaitClientExit() throws InterruptedException {
        transport.awaitEndOfInput();
        close();
    }

    /** Like {@link #awaitClientExit()}, for at most the given time; returns whether the client closed the input. */
    public boolean awaitClientExit(long timeout, TimeUnit unit) throws InterruptedException {
        if (transport.awaitEndOfInput(timeout, unit)) {
            close();
            return true;
        }
        return false;
    }

    /** Stops the server after replies in progress are written. Idempotent. Does not close the curator. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        server.closeGracefully();
    }
}
