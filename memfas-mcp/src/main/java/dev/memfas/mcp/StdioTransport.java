package dev.memfas.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * MCP over standard input and output: one JSON-RPC message per line each way, one session.
 *
 * <p>Every line read is answered or handed on: a line that is not a JSON-RPC message gets a JSON-RPC error
 * ({@link IncomingMessage}) and the next line is read as if nothing happened; a line longer than
 * {@value #MAX_LINE_BYTES} bytes is skipped to its end and refused. At the end of input the replies to requests already
 * read are written (for at most {@value #REPLY_GRACE_MILLIS} ms) before the session closes. Replies are written whole,
 * one at a time, as well-formed UTF-8 ({@link WellFormedText}).
 */
final class StdioTransport implements McpServerTransportProvider {
    private static final Logger LOG = LoggerFactory.getLogger(StdioTransport.class);
    /** The longest line read: 16 MiB, far above any request a client sends, small enough to hold in memory. */
    static final int MAX_LINE_BYTES = 16 * 1024 * 1024;
    private static final long REPLY_GRACE_MILLIS = 60_000;

    private final McpJsonMapper json;
    private final InputStream input;
    private final OutputStream output;
    private final CountDownLatch inputEnded = new CountDownLatch(1);
    /** Requests handed to the session and not yet answered. */
    private int pending;
    private volatile boolean closing;
    private volatile McpServerSession session;

    StdioTransport(McpJsonMapper json, InputStream input, OutputStream output) {
        this.json = json;
        this.input = new BufferedInputStream(input);
        this.output = output;
    }

    @Override
    public void setSessionFactory(McpServerSession.Factory factory) {
        this.session = factory.create(new SessionTransport());
        Thread reader = new Thread(this::readUntilEnd, "memfas-mcp-stdin");
        reader.setDaemon(true); // a client that never closes its end must not keep the JVM alive
        reader.start();
    }

    /** Waits until the client closes the input and the replies in progress are written. */
    boolean awaitEndOfInput(long timeout, TimeUnit unit) throws InterruptedException {
        return inputEnded.await(timeout, unit);
    }

    void awaitEndOfInput() throws InterruptedException {
        inputEnded.await();
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        McpServerSession s = session;
        return s == null ? Mono.empty() : s.sendNotification(method, params);
    }

    @Override
    public Mono<Void> closeGracefully() {
        closing = true;
        McpServerSession s = session;
        return s == null ? Mono.empty() : s.closeGracefully();
    }

    private void readUntilEnd() {
        try {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            boolean tooLong = false;
            int c;
            while (!closing && (c = input.read()) >= 0) {
                if (c == '\n') {
                    endOfLine(line, tooLong);
                    line.reset();
                    tooLong = false;
                } else if (line.size() >= MAX_LINE_BYTES) {
                    tooLong = true;
                    line.reset();
                } else if (!tooLong) {
                    line.write(c);
                }
            }
            if (tooLong || line.size() > 0) {
                endOfLine(line, tooLong); // the last line, without its line break
            }
        } catch (IOException e) {
            LOG.debug("standard input closed", e);
        } finally {
            awaitReplies();
            inputEnded.countDown();
        }
    }

    private void endOfLine(ByteArrayOutputStream line, boolean tooLong) {
        if (tooLong) {
            writeLine(IncomingMessage.errorReply(json, null, McpSchema.ErrorCodes.INVALID_REQUEST,
                    "a message longer than " + MAX_LINE_BYTES + " bytes is not read"));
        } else {
            take(line.toString(StandardCharsets.UTF_8));
        }
    }

    private void take(String text) {
        String line = text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
        if (line.isBlank()) {
            return;
        }
        IncomingMessage incoming = IncomingMessage.read(json, line);
        if (incoming instanceof IncomingMessage.Refused refused) {
            LOG.warn("refused a message on standard input: {}", refused.why());
            writeLine(refused.reply(json));
            return;
        }
        McpSchema.JSONRPCMessage message = ((IncomingMessage.Accepted) incoming).message();
        boolean request = message instanceof McpSchema.JSONRPCRequest;
        if (request) {
            started();
        }
        session.handle(message)
                .doFinally(signal -> {
                    if (request) {
                        finished();
                    }
                })
                .subscribe(ignored -> {}, e -> LOG.warn("a message on standard input failed: {}", e.toString()));
    }

    private synchronized void started() {
        pending++;
    }

    private synchronized void finished() {
        pending--;
        notifyAll();
    }

    private synchronized void awaitReplies() {
        long deadline = System.currentTimeMillis() + REPLY_GRACE_MILLIS;
        while (pending > 0) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                LOG.warn("{} request(s) still unanswered {} ms after the end of input", pending, REPLY_GRACE_MILLIS);
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

    /** Writes one message as one line; a reply whose reader has gone is dropped with a note on the log. */
    private void writeLine(String message) {
        // Jackson leaves no raw line break inside a JSON text, so a message is always one line.
        byte[] bytes = WellFormedText.utf8(message);
        synchronized (output) {
            try {
                output.write(bytes);
                output.write('\n');
                output.flush();
            } catch (IOException e) {
                LOG.debug("cannot write to standard output", e);
            }
        }
    }

    /** The session's side: replies and notifications out, one line each. */
    private final class SessionTransport implements McpServerTransport {
        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return Mono.fromRunnable(() -> {
                try {
                    writeLine(json.writeValueAsString(message));
                } catch (IOException e) {
                    throw new IllegalStateException("cannot write a JSON-RPC message as JSON", e);
                }
            });
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
            return json.convertValue(data, type);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.fromRunnable(() -> closing = true);
        }

        @Override
        public void close() {
            closing = true;
        }
    }
}
