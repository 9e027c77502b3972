package dev.memfas.mcp;

import dev.memfas.ContextCurator;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.json.McpJsonMapper;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Serves a {@link ContextCurator} over the Model Context Protocol on standard input and output, so that an agent in
 * any language can ask for curated context.
 *
 * <p>Tools: by default {@code get_context}, {@code remember}, {@code recall}, {@code report_usage} and
 * {@code forget}; with {@link Builder#tools} also those about state, memory over time, layers and triggers
 * (docs/mcp.md); resource {@code memfas://stats}. Arguments are read leniently ({@code "2000"} for 2000,
 * {@code "true"} for true); a bad call gets a tool error with a one-line message. Standard output carries only
 * JSON-RPC messages; logs belong on standard error.
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

    private static final long REPLY_GRACE_MILLIS = 60_000;

    private final McpSyncServer server;
    private final CountDownLatch inputClosed = new CountDownLatch(1);
    private volatile boolean closed;

    private MemfasMcpServer(Builder b) {
        MemfasTools tools = b.options.toolsServed();
        McpJsonMapper json = McpJsonDefaults.getMapper();
        InFlight inFlight = new InFlight(json);
        InputStream in = new FilterInputStream(b.input) {
            @Override
            public int read() throws IOException {
                int c = super.read();
                if (c < 0) {
                    return endOfInput();
                }
                inFlight.read(new byte[] {(byte) c}, 0, 1);
                return c;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                int n = super.read(buffer, offset, length);
                if (n < 0) {
                    return endOfInput();
                }
                inFlight.read(buffer, offset, n);
                return n;
            }

            private int endOfInput() {
                // The transport drops replies still in progress once it sees the end of input: hold it back until
                // every request read so far is answered.
                inFlight.awaitAnswered(REPLY_GRACE_MILLIS);
                inputClosed.countDown();
                return -1;
            }
        };
        OutputStream out = new FilterOutputStream(b.output) {
            @Override
            public void write(int c) throws IOException {
                super.out.write(c);
                inFlight.written(new byte[] {(byte) c}, 0, 1);
            }

            @Override
            public void write(byte[] buffer, int offset, int length) throws IOException {
                super.out.write(buffer, offset, length);
                inFlight.written(buffer, offset, length);
            }
        };
        StdioServerTransportProvider transport = new StdioServerTransportProvider(json, in, out);
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
        inputClosed.await();
        close();
    }

    /** Like {@link #awaitClientExit()}, for at most the given time; returns whether the client closed the input. */
    public boolean awaitClientExit(long timeout, TimeUnit unit) throws InterruptedException {
        if (inputClosed.await(timeout, unit)) {
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

    /**
     * Counts JSON-RPC requests read and replies written, line by line, so the end of input can wait for the replies
     * still in progress.
     */
    private static final class InFlight {
        private final McpJsonMapper json;
        private final ByteArrayOutputStream inLine = new ByteArrayOutputStream();
        private final ByteArrayOutputStream outLine = new ByteArrayOutputStream();
        private long requests;
        private long replies;

        InFlight(McpJsonMapper json) {
            this.json = json;
        }

        synchronized void read(byte[] bytes, int offset, int length) {
            scan(bytes, offset, length, inLine, true);
        }

        synchronized void written(byte[] bytes, int offset, int length) {
            scan(bytes, offset, length, outLine, false);
            notifyAll();
        }

        private void scan(byte[] bytes, int offset, int length, ByteArrayOutputStream line, boolean input) {
            for (int i = offset; i < offset + length; i++) {
                if (bytes[i] == '\n') {
                    count(line.toString(StandardCharsets.UTF_8), input);
                    line.reset();
                } else {
                    line.write(bytes[i]);
                }
            }
        }

        private void count(String line, boolean input) {
            if (line.isBlank()) {
                return;
            }
            Map<?, ?> message;
            try {
                message = json.readValue(line, Map.class);
            } catch (IOException | RuntimeException e) {
                return; // the transport answers malformed input itself
            }
            if (message.get("id") == null) {
                return;
            }
            if (input && message.containsKey("method")) {
                requests++;
            } else if (!input && (message.containsKey("result") || message.containsKey("error"))) {
                replies++;
            }
        }

        synchronized void awaitAnswered(long maxMillis) {
            long deadline = System.currentTimeMillis() + maxMillis;
            while (replies < requests) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    return;
                }
                try {
                    wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
