package dev.memfas.llm;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A local HTTP server that speaks OpenAI's chat-completions protocol, answering each call as told: with a model's
 * content (fixed, or a function of the request), an error status, a body that is no completion, or not before it is
 * released (a slow model), with OpenAI's {@code usage} if told. It records each request's body and authorization
 * header.
 */
final class CompletionsServer implements AutoCloseable {
    record Seen(String body, String authorization) {}

    private final HttpServer server;
    final List<Seen> seen = new CopyOnWriteArrayList<>();
    private volatile int status = 200;
    private volatile String rawBody;
    private volatile Function<String, String> content = body -> "{}";
    private volatile String usage = "";
    private final CountDownLatch release = new CountDownLatch(1);
    private volatile boolean slow;

    CompletionsServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/chat/completions", exchange -> {
            String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            seen.add(new Seen(request, exchange.getRequestHeaders().getFirst("Authorization")));
            if (slow) {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            String body = rawBody != null ? rawBody : "{\"id\": \"c1\", \"object\": \"chat.completion\", \"choices\": "
                    + "[{\"index\": 0, \"message\": {\"role\": \"assistant\", \"content\": "
                    + quote(content.apply(request)) + "}, \"finish_reason\": \"stop\"}]" + usage + "}";
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            } catch (IOException clientGone) {
                // the client gave up waiting
            }
        });
        server.start();
    }

    URI baseUrl() {
        return URI.create("http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort() + "/v1");
    }

    /** The model answers with this content. */
    CompletionsServer answering(String modelContent) {
        return answering(request -> modelContent);
    }

    /** The model answers each request's body with this function's content. */
    CompletionsServer answering(Function<String, String> modelContent) {
        this.content = modelContent;
        this.rawBody = null;
        this.status = 200;
        return this;
    }

    /** Each answer reports these tokens read and written, as OpenAI's {@code usage} does. */
    CompletionsServer reportingUsage(int promptTokens, int completionTokens) {
        this.usage = ", \"usage\": {\"prompt_tokens\": " + promptTokens + ", \"completion_tokens\": "
                + completionTokens + ", \"total_tokens\": " + (promptTokens + completionTokens) + "}";
        return this;
    }

    /** The server answers with this status and body, as a failing server does. */
    CompletionsServer failing(int status, String body) {
        this.status = status;
        this.rawBody = body;
        return this;
    }

    /** The server answers only when closed: a model slower than any timeout. */
    CompletionsServer slow() {
        this.slow = true;
        return this;
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
    }
}
