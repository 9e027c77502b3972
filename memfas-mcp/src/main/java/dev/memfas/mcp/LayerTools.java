package dev.memfas.mcp;

import static dev.memfas.mcp.ToolSchemas.arrayOf;
import static dev.memfas.mcp.ToolSchemas.object;
import static dev.memfas.mcp.ToolSchemas.output;
import static dev.memfas.mcp.ToolSchemas.prop;

import dev.memfas.ContextCurator;
import dev.memfas.Layer;
import dev.memfas.Memory;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The handlers of the tools about memory layers: {@code promote} and {@code working_memory}. {@link MemfasTools}
 * turns their exceptions into tool errors.
 */
final class LayerTools {
    private final ContextCurator curator;

    LayerTools(ContextCurator curator) {
        this.curator = curator;
    }

    void declare(MemfasTools.Registry registry) {
        Map<String, Object> in = new LinkedHashMap<>();
        in.put("memory_id", prop("string", "The id of the memory to move up."));
        in.put("layer", prop("string", "project or global: a working memory goes into the store, a project memory"
                + " becomes global."));
        in.put("namespace", MemfasTools.NAMESPACE);
        registry.add("promote", "Promote a memory", new MemfasTools.Effects(false, false, true), """
                Moves a memory up a layer: a session's working memory into the store (project or global), or a \
                project memory to the global layer. The result is the memory as now kept.""",
                object(in, List.of("memory_id", "layer")), ToolSchemas.memorySchema(), this::promote);

        in = new LinkedHashMap<>();
        in.put("session_id", prop("string", "The session."));
        in.put("namespace", MemfasTools.NAMESPACE);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("memories", arrayOf(ToolSchemas.memorySchema()));
        registry.add("working_memory", "A session's working memory", MemfasTools.Effects.READS, """
                Lists the working memories a session holds now (scratch kept for this session only, until it \
                expires), most recently used first.""",
                object(in, List.of("session_id")), output(out), this::workingMemory);
    }

    McpSchema.CallToolResult promote(ToolArguments args) {
        String id = args.requiredString("memory_id");
        Layer layer = Layer.parse(args.requiredString("layer"));
        Memory promoted = curator.memories().promote(MemfasTools.namespace(args), id, layer);
        return MemfasTools.ok("promoted " + id + " to the " + Layer.of(promoted).label() + " layer",
                ToolSchemas.memory(promoted, null));
    }

    McpSchema.CallToolResult workingMemory(ToolArguments args) {
        List<Memory> memories = curator.memories().workingMemory(MemfasTools.namespace(args), args.requiredSession());
        StringBuilder text = new StringBuilder(memories.size() + " working memories");
        for (Memory m : memories) {
            text.append('\n').append(m.id()).append(": ").append(m.text());
        }
        return MemfasTools.ok(text.toString(),
                Map.of("memories", memories.stream().map(m -> ToolSchemas.memory(m, null)).toList()));
    }
}
