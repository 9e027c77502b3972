package dev.memfas.mcp;

import static dev.memfas.mcp.ToolSchemas.arrayOf;
import static dev.memfas.mcp.ToolSchemas.object;
import static dev.memfas.mcp.ToolSchemas.output;
import static dev.memfas.mcp.ToolSchemas.prop;
import static dev.memfas.mcp.ToolSchemas.strings;
import static dev.memfas.mcp.ToolSchemas.type;

import dev.memfas.ContextCurator;
import dev.memfas.Trigger;
import dev.memfas.Triggers;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The handlers of the tools about triggers: {@code suggest_triggers} and {@code add_trigger}. {@link MemfasTools}
 * turns their exceptions into tool errors.
 */
final class TriggerTools {
    private final ContextCurator curator;

    TriggerTools(ContextCurator curator) {
        this.curator = curator;
    }

    void declare(MemfasTools.Registry registry) {
        Map<String, Object> in = new LinkedHashMap<>();
        in.put("namespace", MemfasTools.NAMESPACE);
        Map<String, Object> suggestion = new LinkedHashMap<>();
        suggestion.put("keyword", type("string"));
        suggestion.put("queries", type("integer"));
        suggestion.put("memory_ids", arrayOf(type("string")));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("suggestions", arrayOf(output(suggestion)));
        registry.add("suggest_triggers", "Suggest triggers", MemfasTools.Effects.READS, """
                Suggests keyword triggers learned from report_usage: words that recur in the queries of turns whose \
                memories helped, with those memories. Nothing is added; add one with add_trigger.""",
                object(in, List.of()), output(out), this::suggest);

        in = new LinkedHashMap<>();
        in.put("keyword", prop("string", "The word or phrase that fires it, matched as whole words."));
        in.put("hint", prop("string", "A short instruction shown when it fires (default none)."));
        in.put("memory_ids", strings("Memories put in the context when it fires."));
        in.put("namespace", MemfasTools.NAMESPACE);
        out = new LinkedHashMap<>();
        out.put("keyword", type("string"));
        out.put("memory_ids", arrayOf(type("string")));
        registry.add("add_trigger", "Add a trigger", new MemfasTools.Effects(false, false, true), """
                Adds a keyword trigger: when a query contains the keyword, its hint and memories go into the \
                context first. A trigger with the same keyword is replaced.""",
                object(in, List.of("keyword")), output(out), this::add);
    }

    McpSchema.CallToolResult suggest(ToolArguments args) {
        List<Triggers.Suggestion> suggestions = curator.triggers().suggest(MemfasTools.namespace(args));
        StringBuilder text = new StringBuilder(suggestions.isEmpty() ? "no suggestions yet"
                : suggestions.size() + " suggestions");
        List<Map<String, Object>> structured = new ArrayList<>();
        for (Triggers.Suggestion s : suggestions) {
            text.append('\n').append(s.keyword()).append(" (").append(s.queries()).append(" helpful queries): ")
                    .append(String.join(", ", s.memoryIds()));
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("keyword", s.keyword());
            o.put("queries", s.queries());
            o.put("memory_ids", s.memoryIds());
            structured.add(o);
        }
        return MemfasTools.ok(text.toString(), Map.of("suggestions", structured));
    }

    McpSchema.CallToolResult add(ToolArguments args) {
        String hint = args.optionalString("hint");
        List<String> ids = args.optionalStringList("memory_ids");
        Trigger t = new Trigger(args.requiredString("keyword"), hint == null ? "" : hint,
                ids == null ? List.of() : ids, MemfasTools.namespace(args));
        curator.triggers().add(t);
        return MemfasTools.ok("added trigger '" + t.keyword() + "'",
                Map.of("keyword", t.keyword(), "memory_ids", t.memoryIds()));
    }
}
