package dev.memfas.spring.boot;

import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code memfas.*} properties.
 *
 * @param database the SQLite file memories are kept in, created when missing ({@code .memfas/memfas.db} under the
 *     working directory by default)
 * @param budget the token budget of a turn that names none; the curator's default (2,000) when not set
 * @param model the embedding model: a built-in model id ({@code bge-small-en-v1.5-q}, the default, whose jar the starter
 *     brings), a directory holding {@code model.onnx} and {@code tokenizer.json}, or {@code none} for words only. An
 *     {@code Embedder} bean of the application's own takes its place.
 * @param namespace the namespace (tenant) the advisor curates from and remembers into
 * @param telemetry a JSONL file each turn's telemetry is appended to; none when not set
 * @param advisor the Spring AI advisor
 */
@ConfigurationProperties("memfas")
public record MemfasProperties(
        @DefaultValue(".memfas/memfas.db") Path database,
        Integer budget,
        @DefaultValue("bge-small-en-v1.5-q") String model,
        @DefaultValue("default") String namespace,
        Path telemetry,
        @DefaultValue Advisor advisor) {

    /**
     * The {@code memfas.advisor.*} properties.
     *
     * @param enabled whether a {@code MemfasAdvisor} bean is defined (when Spring AI's chat client is present)
     * @param rememberExchanges whether each exchange is remembered after the call
     * @param reportUsage whether the memories an answer cites by id are reported as helpful
     */
    public record Advisor(
            @DefaultValue("true") boolean enabled,
            @DefaultValue("true") boolean rememberExchanges,
            @DefaultValue("true") boolean reportUsage) {}
}
