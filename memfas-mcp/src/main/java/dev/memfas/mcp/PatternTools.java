package dev.memfas.mcp;

import static dev.memfas.mcp.ToolSchemas.arrayOf;
import static dev.memfas.mcp.ToolSchemas.object;
import static dev.memfas.mcp.ToolSchemas.output;
import static dev.memfas.mcp.ToolSchemas.prop;
import static dev.memfas.mcp.ToolSchemas.type;

import dev.memfas.ContextCurator;
import dev.memfas.Memories;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The handler of {@code patterns}: what recurs among the memories ({@link Memories#patterns}). {@link MemfasTools}
 * turns its exceptions into tool errors.
 */
final class PatternTools {
    private static final int DEFAULT_LIMIT = 10;

    private final ContextCurator curator;

    PatternTools(ContextCurator curator) {
        this.curator = curator;
    }

    void declare(MemfasTools.Registry registry) {
        Map<String, Object> in = new LinkedHashMap<>();
        in.put("limit", prop("integer", "At most this many, 1 to 100 (default " + DEFAULT_LIMIT + ")."));
        in.put("namespace", MemfasTools.NAMESPACE);
        Map<String, Object> pattern = new LinkedHashMap<>();
        pattern.put("label", type("string"));
        pattern.put("count", type("integer"));
        pattern.put("sources", type("integer"));
        pattern.put("latest_id", type("string"));
        pattern.put("latest_text", type("string"));
        pattern.put("memory_ids", arrayOf(type("string")));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("patterns", arrayOf(object(pattern, List.of())));
        registry.add("patterns", "Recurring patterns", MemfasTools.Effects.READS, """
                Lists what recurs among the memories: the same fix, convention or habit written in several sessions, \
                most frequent first, each with its count and latest example.""",
                object(in, List.of()), output(out), this::patterns);
    }

    McpSchema.CallToolResult patterns(ToolArguments args) {
        Integer limit = args.optionalInt("limit", 1, 100);
        List<Memories.Pattern> patterns = curator.memories().patterns(MemfasTools.namespace(args),
                null, limit == null ? DEFAULT_LIMIT : limit);
        StringBuilder text = new StringBuilder(patterns.size() + (patterns.size() == 1 ? " pattern" : " patterns"));
        List<Map<String, Object>> structured = new java.util.ArrayList<>();
        for (Memories.Pattern p : patterns) {
            text.append("\n- ").append(p.count()).append("× ").append(p.label()).append(" (").append(p.sources())
                    .append(" sources), latest [").append(p.latest().id()).append("] ")
                    .append(p.latest().text().replace('\n', ' '));
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("label", p.label());
            o.put("count", p.count());
            o.put("sources", p.sources());
            o.put("latest_id", p.latest().id());
            o.put("latest_text", p.latest().text());
            o.put("memory_ids", p.memoryIds());
            structured.add(o);
        }
        return MemfasTools.ok(text.toString(), Map.of("patterns", structured));
    }
}
