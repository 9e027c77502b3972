package dev.memfas.llm;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * One OpenAI-compatible chat-completions endpoint (Ollama, vLLM, LM Studio, OpenAI and others speak it): a system and a
 * user message in, the model's answer out, at temperature 0, within a timeout, with the tokens it read and wrote (the
 * answer's {@code usage}) and their price when prices are given. The API key, if any, is sent as a bearer token and
 * appears in no message, log or {@code toString}. Thread-safe.
 *
 * <pre>{@code
 * ChatEndpoint ollama = ChatEndpoint.builder(URI.create("http://localhost:11434/v1"), "llama3.1").build();
 * }</pre>
 */
public final class ChatEndpoint {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int MOST_SHOWN = 200;

    private final URI completions;
    private final String model;
    private final String apiKey;
    private final Duration timeout;
    private final double inputPrice;
    private final double outputPrice;
    private final HttpClient http;

    private ChatEndpoint(Builder b) {
        String base = b.baseUrl.toString();
        this.completions = URI.create(base.endsWith("/") ? base + "chat/completions" : base + "/chat/completions");
        this.model = b.model;
        this.apiKey = b.apiKey;
        this.timeout = b.timeout;
        this.inputPrice = b.inputPrice;
        this.outputPrice = b.outputPrice;
        this.http = HttpClient.newBuilder().connectTimeout(b.timeout).build();
    }

    /**
     * Starts an endpoint at a base URL, the one before {@code /chat/completions} ({@code http://localhost:11434/v1}
     * for Ollama, {@code https://api.openai.com/v1} for OpenAI), for a model.
     *
     * @throws IllegalArgumentException if the URL is not http or https, or the model is blank
     */
    public static Builder builder(URI baseUrl, String model) {
        return new Builder(baseUrl, model);
    }

    /** Options of a {@link ChatEndpoint}. Not thread-safe. */
    public static final class Builder {
        private final URI baseUrl;
        private final String model;
        private String apiKey;
        private Duration timeout = Duration.ofSeconds(30);
        private double inputPrice;
        private double outputPrice;

        private Builder(URI baseUrl, String model) {
            Objects.requireNonNull(baseUrl, "baseUrl");
            Objects.requireNonNull(model, "model");
            if (!"http".equals(baseUrl.getScheme()) && !"https".equals(baseUrl.getScheme())) {
                throw new IllegalArgumentException("the base URL must be http or https: " + baseUrl);
            }
            if (model.isBlank()) {
                throw new IllegalArgumentException("the model must not be blank");
            }
            this.baseUrl = baseUrl;
            this.model = model;
        }

        /** The API key, sent as {@code Authorization: Bearer ...}; none when not set (local servers need none). */
        public Builder apiKey(String apiKey) {
            this.apiKey = Objects.requireNonNull(apiKey, "apiKey");
            return this;
        }

        /** How long one call may take, connecting included; 30 seconds when not set. */
        public Builder timeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("the timeout must be positive: " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * What a million tokens cost, read and written (OpenAI's price list gives both per million), in any unit:
         * {@link Completion#cost()} is in the same one. Nothing when not set (a local model).
         *
         * @throws IllegalArgumentException if a price is negative or not finite
         */
        public Builder pricePerMillionTokens(double input, double output) {
            if (!(input >= 0 && output >= 0) || Double.isInfinite(input) || Double.isInfinite(output)) {
                throw new IllegalArgumentException("prices must be finite and not negative: " + input + ", " + output);
            }
            this.inputPrice = input;
            this.outputPrice = output;
            return this;
        }

        public ChatEndpoint build() {
            return new ChatEndpoint(this);
        }
    }

    /**
     * One answer of the model, and what it cost.
     *
     * @param content the answer
     * @param inputTokens tokens the model read, as the endpoint reported them ({@code usage.prompt_tokens}); 0 if it
     *     did not
     * @param outputTokens tokens it wrote ({@code usage.completion_tokens}); 0 if it did not say
     * @param cost their price at the endpoint's prices; 0 without prices
     */
    public record Completion(String content, long inputTokens, long outputTokens, double cost) {}

    /**
     * The model's answer to a system and a user message.
     *
     * @throws IOException as {@link #completion(String, String)}
     * @throws InterruptedException if interrupted while waiting
     */
    public String complete(String system, String user) throws IOException, InterruptedException {
        return completion(system, user).content();
    }

    /**
     * The model's answer to a system and a user message, with the tokens it read and wrote and their price.
     *
     * @throws IOException if the endpoint cannot be reached, answers with an error status, takes longer than the
     *     timeout, or answers with something that is not a chat completion; the message names the endpoint and the
     *     status, never the key
     * @throws InterruptedException if interrupted while waiting
     */
    public Completion completion(String system, String user) throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", model);
        body.put("temperature", 0);
        body.put("stream", false);
        body.putArray("messages").add(message("system", system)).add(message("user", user));
        HttpRequest.Builder request = HttpRequest.newBuilder(completions).timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body), StandardCharsets.UTF_8));
        if (apiKey != null) {
            request.header("Authorization", "Bearer " + apiKey);
        }
        HttpResponse<String> response = http.send(request.build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        if (response.statusCode() / 100 != 2) {
            throw new IOException(completions + " answered " + response.statusCode() + ": " + shown(response.body()));
        }
        try {
            JsonNode answer = JSON.readTree(response.body());
            JsonNode content = answer.path("choices").path(0).path("message").path("content");
            if (!content.isString()) {
                throw new IOException(completions + " answered without choices[0].message.content: "
                        + shown(response.body()));
            }
            long read = Math.max(0, answer.path("usage").path("prompt_tokens").asLong(0));
            long written = Math.max(0, answer.path("usage").path("completion_tokens").asLong(0));
            return new Completion(content.asString(), read, written, (read * inputPrice + written * outputPrice) / 1e6);
        } catch (JacksonException e) {
            throw new IOException(completions + " answered with something that is not JSON: "
                    + shown(response.body()));
        }
    }

    private static ObjectNode message(String role, String content) {
        ObjectNode m = JSON.createObjectNode();
        m.put("role", role);
        m.put("content", content);
        return m;
    }

    private static String shown(String body) {
        String oneLine = body.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= MOST_SHOWN ? oneLine : oneLine.substring(0, MOST_SHOWN) + "...";
    }

    /** The endpoint and model; never the key. */
    @Override
    public String toString() {
        return "ChatEndpoint[" + completions + ", model " + model + (apiKey != null ? ", with a key" : "") + "]";
    }
}
