package dev.memfas.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * One JSON-RPC message as a client sent it, read before the SDK sees it: either a message the session can handle, or
 * the JSON-RPC error it gets instead. Both transports read through it, so that no input, however malformed, leaves a
 * request unanswered, a transport stopped or a Java exception in a reply.
 *
 * <p>What is refused: text that is not JSON ({@code -32700}); a batch (MCP dropped JSON-RPC batches), a value that is
 * not an object, a {@code jsonrpc} other than {@code "2.0"}, an {@code id} that is not a string or an integer, a
 * {@code method} that is not a string, {@code params} that are not an object ({@code -32600}); a {@code tools/call}
 * without a tool name or with {@code arguments} that are not an object ({@code -32602}). A refusal names the id when
 * the message has a usable one, else {@code null}, as JSON-RPC asks.
 */
sealed interface IncomingMessage {
    /** A message the session handles. */
    record Accepted(McpSchema.JSONRPCMessage message) implements IncomingMessage {}

    /** A message answered with an error, never handed on. */
    record Refused(Object id, int code, String why) implements IncomingMessage {
        /** The error reply, a JSON-RPC error object. */
        String reply(McpJsonMapper json) {
            return errorReply(json, id, code, why);
        }
    }

    /** Reads one message from its JSON text. */
    static IncomingMessage read(McpJsonMapper json, String text) {
        Object value;
        try {
            value = json.readValue(text, Object.class);
        } catch (IOException | RuntimeException e) {
            // The mapper wraps the parser's exception, whose message says what is wrong and where.
            Throwable why = e.getCause() != null ? e.getCause() : e;
            return new Refused(null, McpSchema.ErrorCodes.PARSE_ERROR, "not JSON: " + firstLine(why.getMessage()));
        }
        if (value instanceof List<?>) {
            return new Refused(null, McpSchema.ErrorCodes.INVALID_REQUEST,
                    "batches are not served: send one JSON-RPC message at a time");
        }
        if (!(value instanceof Map<?, ?> message)) {
            return new Refused(null, McpSchema.ErrorCodes.INVALID_REQUEST, "a JSON-RPC message is a JSON object");
        }
        Object id = message.get("id");
        if (id != null && !validId(id)) {
            return new Refused(null, McpSchema.ErrorCodes.INVALID_REQUEST, "id must be a string or an integer");
        }
        if (!"2.0".equals(message.get("jsonrpc"))) {
            return new Refused(id, McpSchema.ErrorCodes.INVALID_REQUEST, "jsonrpc must be \"2.0\"");
        }
        Object method = message.get("method");
        if (method == null && !message.containsKey("result") && !message.containsKey("error")) {
            return new Refused(id, McpSchema.ErrorCodes.INVALID_REQUEST,
                    "neither a request (method) nor a response (result or error)");
        }
        if (method != null && !(method instanceof String)) {
            return new Refused(id, McpSchema.ErrorCodes.INVALID_REQUEST, "method must be a string");
        }
        Object params = message.get("params");
        if (params != null && !(params instanceof Map<?, ?>)) {
            return new Refused(id, McpSchema.ErrorCodes.INVALID_REQUEST, "params must be an object");
        }
        if (McpSchema.METHOD_TOOLS_CALL.equals(method)) {
            Map<?, ?> call = params == null ? Map.of() : (Map<?, ?>) params;
            if (!(call.get("name") instanceof String)) {
                return new Refused(id, McpSchema.ErrorCodes.INVALID_PARAMS, "tools/call needs the tool's name");
            }
            Object arguments = call.get("arguments");
            if (arguments != null && !(arguments instanceof Map<?, ?>)) {
                return new Refused(id, McpSchema.ErrorCodes.INVALID_PARAMS,
                        "tools/call arguments must be an object of named arguments");
            }
        }
        try {
            return new Accepted(McpSchema.deserializeJsonRpcMessage(json, text));
        } catch (IOException | RuntimeException e) {
            return new Refused(id, McpSchema.ErrorCodes.INVALID_REQUEST,
                    "not a JSON-RPC message: " + firstLine(e.getMessage()));
        }
    }

    /** A JSON-RPC error object, as one line of JSON. */
    static String errorReply(McpJsonMapper json, Object id, int code, String why) {
        try {
            // Written out, not mapped: JSON-RPC asks for "id": null when the id is unknown, which a mapper that leaves
            // out nulls would drop. Only the id and the message are the caller's, and both go through the mapper.
            return "{\"jsonrpc\":\"2.0\",\"id\":" + (id == null ? "null" : json.writeValueAsString(id))
                    + ",\"error\":{\"code\":" + code + ",\"message\":" + json.writeValueAsString(why) + "}}";
        } catch (IOException e) {
            throw new IllegalStateException("cannot write a JSON-RPC error as JSON", e);
        }
    }

    private static boolean validId(Object id) {
        return id instanceof String || id instanceof Integer || id instanceof Long || id instanceof BigInteger
                || id instanceof Short || (id instanceof BigDecimal d && d.stripTrailingZeros().scale() <= 0);
    }

    /** The first line of a parser's message, at most 200 characters: enough to say where, never an echo of a body. */
    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        String line = message.lines().findFirst().orElse("").strip();
        return line.length() > 200 ? line.substring(0, 200) + "…" : line;
    }
}
