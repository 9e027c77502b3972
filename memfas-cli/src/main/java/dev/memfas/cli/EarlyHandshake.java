package dev.memfas.cli;

import dev.memfas.mcp.MemfasMcpServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Answers an MCP client's {@code initialize} on standard input and output the moment it arrives, while the store, the
 * curator and the MCP SDK are still being set up, then hands the stream on to the server as if nothing had been read.
 *
 * <p>An MCP host starts the server and waits for this one answer before it shows the server as ready; some give up
 * after a few seconds. Setting everything up takes about a second on an idle machine with the class-data archive and
 * two or more on a busy one, while the answer itself needs nothing of it: the server's name and version, its
 * capabilities and instructions, and the protocol version, all fixed. So the first line is read on a thread of its
 * own as soon as the command starts. If it is an {@code initialize} request, it is answered at once, exactly as the
 * SDK would answer it ({@code EarlyHandshakeTest} compares the two for every protocol version). The server is then
 * given the same line again, followed by the rest of the input, and its own answer to that request is dropped, so that
 * the client sees one answer and the server's session is initialized as usual. Any other first line is only passed on.
 *
 * <p>Thread-safe: {@link #serverOutput()} may be written by the server's threads.
 */
final class EarlyHandshake {
    /** The protocol versions the MCP SDK speaks; a client asking for another is answered with the newest. */
    static final List<String> PROTOCOL_VERSIONS = List.of("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25");

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final InputStream in;
    private final OutputStream out;
    private final String version;
    private final CompletableFuture<byte[]> firstLine = new CompletableFuture<>();
    /** The id of the request answered early, whose second answer (the server's) is dropped; null when none. */
    private volatile JsonNode answeredId;
    private final Object writing = new Object();

    private EarlyHandshake(InputStream in, OutputStream out, String version) {
        this.in = in;
        this.out = out;
        this.version = version;
    }

    /**
     * Starts reading the first line on a daemon thread and answers it if it is {@code initialize}.
     *
     * @param version the server version to announce, as the server will
     */
    static EarlyHandshake start(InputStream in, OutputStream out, String version) {
        EarlyHandshake handshake = new EarlyHandshake(in, out, version);
        Thread reader = new Thread(handshake::readFirstLine, "memfas-mcp-handshake");
        reader.setDaemon(true);
        reader.start();
        return handshake;
    }

    private void readFirstLine() {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        try {
            // Byte by byte, so that nothing past the first line is taken from the stream the server reads next.
            for (int c = in.read(); c >= 0; c = in.read()) {
                line.write(c);
                if (c == '\n') {
                    break;
                }
            }
            byte[] bytes = line.toByteArray();
            answer(bytes);
            firstLine.complete(bytes);
        } catch (IOException | RuntimeException e) {
            // The server reads the same stream next and meets the same end or failure; it says what went wrong.
            firstLine.complete(line.toByteArray());
        }
    }

    private void answer(byte[] line) throws IOException {
        JsonNode request;
        try {
            request = JSON.readTree(new String(line, StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            return; // not JSON: the server answers it
        }
        if (request == null || !request.isObject() || !"initialize".equals(request.path("method").asString(null))
                || request.get("id") == null || request.get("id").isNull()) {
            return;
        }
        String asked = request.path("params").path("protocolVersion").asString(null);
        ObjectNode result = JSON.createObjectNode();
        result.put("protocolVersion", PROTOCOL_VERSIONS.contains(asked) ? asked
                : PROTOCOL_VERSIONS.get(PROTOCOL_VERSIONS.size() - 1));
        ObjectNode capabilities = result.putObject("capabilities");
        capabilities.putObject("logging");
        capabilities.putObject("prompts").put("listChanged", false);
        capabilities.putObject("resources").put("subscribe", false).put("listChanged", false);
        capabilities.putObject("tools").put("listChanged", false);
        result.putObject("serverInfo").put("name", MemfasMcpServer.NAME).put("version", version);
        result.put("instructions", MemfasMcpServer.INSTRUCTIONS);
        ObjectNode reply = JSON.createObjectNode();
        reply.put("jsonrpc", "2.0");
        reply.set("id", request.get("id"));
        reply.set("result", result);
        answeredId = request.get("id");
        synchronized (writing) {
            out.write(JSON.writeValueAsBytes(reply));
            out.write('\n');
            out.flush();
        }
    }

    /**
     * What the server reads: the first line again, then the rest of the input. Its first read waits for the first line
     * to have been read; making it does not, so the server is built without waiting for the client.
     */
    InputStream serverInput() {
        return new InputStream() {
            private InputStream replay;

            private InputStream replay() {
                if (replay == null) {
                    replay = new SequenceInputStream(new ByteArrayInputStream(firstLine.join()), in);
                }
                return replay;
            }

            @Override
            public int read() throws IOException {
                return replay().read();
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                return replay().read(buffer, offset, length);
            }

            @Override
            public int available() throws IOException {
                return firstLine.isDone() ? replay().available() : 0;
            }

            @Override
            public void close() throws IOException {
                in.close();
            }
        };
    }

    /** Where the server writes: every line passes but the server's own answer to the request answered early. */
    OutputStream serverOutput() {
        return new OutputStream() {
            private final ByteArrayOutputStream line = new ByteArrayOutputStream();

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                synchronized (writing) {
                    for (int i = offset; i < offset + length; i++) {
                        line.write(bytes[i]);
                        if (bytes[i] == '\n') {
                            pass(line.toByteArray());
                            line.reset();
                        }
                    }
                }
            }

            @Override
            public void flush() throws IOException {
                synchronized (writing) {
                    out.flush();
                }
            }

            @Override
            public void close() throws IOException {
                synchronized (writing) {
                    if (line.size() > 0) {
                        pass(line.toByteArray());
                        line.reset();
                    }
                    out.close();
                }
            }
        };
    }

    private void pass(byte[] line) throws IOException {
        JsonNode dropping = answeredId;
        if (dropping != null && isAnswerTo(line, dropping)) {
            answeredId = null; // once: a later reuse of the id is the client's business
            return;
        }
        out.write(line);
        out.flush();
    }

    private static boolean isAnswerTo(byte[] line, JsonNode id) {
        try {
            JsonNode message = JSON.readTree(new String(line, StandardCharsets.UTF_8));
            return message != null && message.isObject() && id.equals(message.get("id"))
                    && (message.has("result") || message.has("error")) && !message.has("method");
        } catch (RuntimeException e) {
            return false;
        }
    }
}
