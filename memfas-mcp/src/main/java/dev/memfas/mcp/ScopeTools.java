package dev.memfas.mcp;

import static dev.memfas.mcp.ToolSchemas.arrayOf;
import static dev.memfas.mcp.ToolSchemas.object;
import static dev.memfas.mcp.ToolSchemas.output;
import static dev.memfas.mcp.ToolSchemas.prop;
import static dev.memfas.mcp.ToolSchemas.type;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.Scope;
import dev.memfas.spi.StoredMemory;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The handler of {@code memory_context}: the memories that apply in a scope, asked for on demand rather than by query
 * ({@link dev.memfas.Memories#memoryContext}). Without a scope, the server's project's, else its language's, else the
 * universal ones. {@link MemfasTools} turns its exceptions into tool errors.
 */
final class ScopeTools {
    private static final int DEFAULT_LIMIT = 20;

    private final ContextCurator curator;
    private final WorkingContext here;

    ScopeTools(ContextCurator curator, WorkingContext here) {
        this.curator = curator;
        this.here = here;
    }

    void declare(MemfasTools.Registry registry) {
        Map<String, Object> in = new LinkedHashMap<>();
        in.put("scope", prop("string", "universal, language:NAME, project:NAME or project:NAME:task:TASK (default: the"
                + " server's project, else its language, else universal)."));
        in.put("kind", prop("string", "Only memories of this kind: rule, preference, correction, decision,"
                + " anti_pattern, ... (default any)."));
        in.put("limit", prop("integer", "At most this many, 1 to 200 (default " + DEFAULT_LIMIT + ")."));
        in.put("namespace", MemfasTools.NAMESPACE);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("scope", type("string"));
        out.put("memories", arrayOf(ToolSchemas.memorySchema()));
        registry.add("memory_context", "Rules for a scope", MemfasTools.Effects.READS, """
                Lists the memories that apply in a scope, without a query: its own and those of every broader scope \
                (universal ones everywhere), never another project's or language's; most specific first, then the \
                most repeated. Call it when you need the standing rules, preferences and corrections for where you \
                work.""",
                object(in, List.of()), output(out), this::memoryContext);
    }

    McpSchema.CallToolResult memoryContext(ToolArguments args) {
        String given = args.optionalString("scope");
        Scope scope = given != null && !given.isBlank() ? Scope.parse(given) : here.scope();
        String kind = args.optionalString("kind");
        Integer limit = args.optionalInt("limit", 1, 200);
        List<StoredMemory> memories = curator.memories().memoryContext(MemfasTools.namespace(args), scope,
                kind == null || kind.isBlank() ? null : kind, limit == null ? DEFAULT_LIMIT : limit);
        StringBuilder text = new StringBuilder(memories.size() + " memories apply in " + scope);
        for (StoredMemory s : memories) {
            Memory m = s.memory();
            text.append("\n- [").append(m.id()).append("] (").append(m.scope()).append(", ").append(m.kind())
                    .append(s.evidenceCount() > 1 ? ", said " + s.evidenceCount() + " times" : "").append(") ")
                    .append(m.text().replace('\n', ' '));
        }
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("scope", scope.toString());
        structured.put("memories", memories.stream().map(ToolSchemas::memory).toList());
        return MemfasTools.ok(text.toString(), structured);
    }
}
