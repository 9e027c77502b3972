package dev.memfas.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * What a memfas server offers, whatever its transport: the tools, the statistics resource, the prompt and the
 * instructions. A server with several clients passes each call's MCP session on, so that the memfas sessions a client
 * names are its own.
 */
final class McpFeatures {
    private McpFeatures() {}

    static <S extends McpServer.SyncSpecification<S>> S offer(S spec, MemfasTools tools, McpJsonMapper json,
            String version, boolean severalClients) {
        spec.serverInfo(MemfasMcpServer.NAME, version)
                .instructions(MemfasMcpServer.INSTRUCTIONS)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).resources(false, false)
                        .prompts(false).build())
                // Arguments are checked leniently by the tools themselves: models send "2000" for 2000.
                .validateToolInputs(false);
        for (MemfasTools.Tool tool : tools.tools()) {
            spec.tools(McpServerFeatures.SyncToolSpecification.builder().tool(tool.schema())
                    .callHandler((exchange, request) -> tools.call(request.name(), request.arguments(),
                            severalClients ? exchange.sessionId() : null, tenants(exchange)))
                    .build());
        }
        McpSchema.Resource stats = McpSchema.Resource.builder(MemfasMcpServer.STATS_URI, "stats")
                .description("Counts of memories, vectors, triggers, sessions and turns; the embedder and tokenizer.")
                .mimeType("application/json").build();
        spec.resources(new McpServerFeatures.SyncResourceSpecification(stats, (exchange, request) ->
                McpSchema.ReadResourceResult.builder(List.of(McpSchema.TextResourceContents
                        .builder(MemfasMcpServer.STATS_URI, toJson(json, tools.stats(tenants(exchange))))
                        .mimeType("application/json")
                        .build())).build()));
        spec.prompts(MemoryPrompt.specification());
        return spec;
    }

    /** The namespaces the caller may use, as its transport vouched for them; null when it says nothing (stdio). */
    private static Tenants tenants(McpSyncServerExchange exchange) {
        McpTransportContext context = exchange.transportContext();
        return context == null ? null : (Tenants) context.get(Tenants.CONTEXT_KEY);
    }

    private static String toJson(McpJsonMapper json, Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the statistics as JSON", e);
        }
    }
}
