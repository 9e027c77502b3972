package dev.memfas.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What passes between an HTTP client and the MCP SDK's servlet, both ways.
 *
 * <p>In: the body of a POST is read whole (at most {@value #MAX_BODY_BYTES} bytes) and checked as one JSON-RPC message
 * ({@link IncomingMessage}); a body that is not one is answered with the JSON-RPC error and HTTP 400, and never reaches
 * the SDK. Out: every error the SDK or the servlet container answers with ({@code sendError}, or a body of its own
 * with a status of 400 or more) goes out as a JSON-RPC error object, never a page or a serialized Java exception; and
 * all text goes out as well-formed UTF-8 ({@link WellFormedText}).
 */
final class JsonRpcGate implements Filter {
    private static final Logger LOG = LoggerFactory.getLogger(JsonRpcGate.class);
    /** The largest body read: 4 MiB, far above any request an MCP client sends. */
    static final int MAX_BODY_BYTES = 4 * 1024 * 1024;

    private final McpJsonMapper json;

    JsonRpcGate(McpJsonMapper json) {
        this.json = json;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        JsonRpcResponse response = new JsonRpcResponse((HttpServletResponse) res, json);
        if ("POST".equals(request.getMethod())) {
            byte[] body = readBody(request, response);
            if (body == null) {
                return;
            }
            IncomingMessage incoming = IncomingMessage.read(json, new String(body, StandardCharsets.UTF_8));
            if (incoming instanceof IncomingMessage.Refused refused) {
                LOG.warn("refused an MCP request from {}: {}", request.getRemoteAddr(), refused.why());
                writeReply(response.original(), HttpServletResponse.SC_BAD_REQUEST, refused.reply(json));
                return;
            }
            request = new ReplayedBody(request, body);
        }
        chain.doFilter(request, response);
        if (!request.isAsyncStarted()) {
            response.finish();
        }
    }

    /** The body as UTF-8, or null when it was refused (too long, or in a character set not known). */
    private byte[] readBody(HttpServletRequest request, JsonRpcResponse response) throws IOException {
        Charset charset;
        try {
            charset = request.getCharacterEncoding() == null ? StandardCharsets.UTF_8
                    : Charset.forName(request.getCharacterEncoding());
        } catch (IllegalArgumentException e) {
            writeError(response.original(), json, HttpServletResponse.SC_BAD_REQUEST, -32700,
                    "unknown character set of the body: " + request.getCharacterEncoding());
            return null;
        }
        if (request.getContentLengthLong() > MAX_BODY_BYTES) {
            writeError(response.original(), json, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE, -32600,
                    "a request longer than " + MAX_BODY_BYTES + " bytes is not read");
            return null;
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try (InputStream in = request.getInputStream()) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                if (body.size() + n > MAX_BODY_BYTES) {
                    writeError(response.original(), json, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE, -32600,
                            "a request longer than " + MAX_BODY_BYTES + " bytes is not read");
                    return null;
                }
                body.write(buffer, 0, n);
            }
        }
        byte[] bytes = body.toByteArray();
        return charset.equals(StandardCharsets.UTF_8) ? bytes
                : new String(bytes, charset).getBytes(StandardCharsets.UTF_8);
    }

    /** Writes a JSON-RPC error with no id, at the given HTTP status. */
    static void writeError(HttpServletResponse response, McpJsonMapper json, int status, int code, String why)
            throws IOException {
        writeReply(response, status, IncomingMessage.errorReply(json, null, code, why));
    }

    private static void writeReply(HttpServletResponse response, int status, String reply) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        byte[] bytes = WellFormedText.utf8(reply);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
        response.getOutputStream().flush();
    }

    /** The request with its body, already read, given again to whoever reads it next. */
    private static final class ReplayedBody extends HttpServletRequestWrapper {
        private final byte[] body;

        ReplayedBody(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public String getCharacterEncoding() {
            return "UTF-8";
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new IllegalStateException("the body is already read; read it blocking");
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body), StandardCharsets.UTF_8));
        }
    }

    /**
     * The response as the SDK writes it: text through a well-formed writer; an error ({@code sendError}, or a status
     * of 400 or more) held back and written, once the SDK is done, as a JSON-RPC error with the same status.
     */
    private static final class JsonRpcResponse extends HttpServletResponseWrapper {
        private final HttpServletResponse original;
        private final McpJsonMapper json;
        private PrintWriter writer;
        /** The body of an error response, held until {@link #finish()}; null while the response is no error. */
        private StringWriter held;
        private int status = SC_OK;
        private String errorMessage;

        JsonRpcResponse(HttpServletResponse original, McpJsonMapper json) {
            super(original);
            this.original = original;
            this.json = json;
        }

        HttpServletResponse original() {
            return original;
        }

        @Override
        public void setStatus(int sc) {
            status = sc;
            if (sc >= 400) {
                held = held == null ? new StringWriter() : held;
            } else {
                super.setStatus(sc);
            }
        }

        @Override
        public void sendError(int sc, String msg) {
            setStatus(sc);
            errorMessage = msg;
        }

        @Override
        public void sendError(int sc) {
            sendError(sc, null);
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            if (held != null) {
                return new PrintWriter(held);
            }
            if (writer == null) {
                writer = new PrintWriter(WellFormedText.writer(super.getWriter()));
            }
            return writer;
        }

        /** Writes a held error as a JSON-RPC error; nothing when the response is no error. */
        void finish() throws IOException {
            if (held == null || original.isCommitted()) {
                return;
            }
            String why = errorMessage != null ? errorMessage : messageOf(held.toString(), status);
            int code = status == SC_NOT_FOUND ? -32001 : status >= 500 ? -32603 : -32600;
            writeError(original, json, status, codeOf(held.toString(), code), why);
        }

        /** The message of an error body the SDK wrote: a JSON-RPC error, or a serialized exception holding one. */
        private String messageOf(String body, int status) {
            Map<?, ?> error = errorObject(body);
            Object message = error == null ? null : error.get("message");
            return message instanceof String s && !s.isBlank() ? s : "HTTP " + status;
        }

        private int codeOf(String body, int fallback) {
            Map<?, ?> error = errorObject(body);
            return error != null && error.get("code") instanceof Number n ? n.intValue() : fallback;
        }

        private Map<?, ?> errorObject(String body) {
            try {
                Object value = json.readValue(body, Object.class);
                if (value instanceof Map<?, ?> map) {
                    Object inner = map.containsKey("jsonRpcError") ? map.get("jsonRpcError") : map.get("error");
                    return inner instanceof Map<?, ?> m ? m : null;
                }
            } catch (IOException | RuntimeException e) {
                // Not JSON: the status says what happened.
            }
            return null;
        }
    }
}
