package dev.memfas.mcp;

import static dev.memfas.mcp.ToolSchemas.arrayOf;
import static dev.memfas.mcp.ToolSchemas.nullable;
import static dev.memfas.mcp.ToolSchemas.object;
import static dev.memfas.mcp.ToolSchemas.output;
import static dev.memfas.mcp.ToolSchemas.prop;
import static dev.memfas.mcp.ToolSchemas.type;

import dev.memfas.ContextCurator;
import dev.memfas.State;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The handlers of the key-value state tools: {@code save_state}, {@code load_state}, {@code list_state_keys},
 * {@code search_state}, {@code delete_state}, {@code clear_state}, and {@code offer}, which saves a tool's result when
 * it is worth keeping. {@link MemfasTools} turns their exceptions into tool errors.
 */
final class StateTools {
    private static final int DEFAULT_SEARCH = 50;

    private final ContextCurator curator;

    StateTools(ContextCurator curator) {
        this.curator = curator;
    }

    void declare(MemfasTools.Registry registry) {
        Map<String, Object> key = prop("string", "The key, 1 to 512 characters (keys beginning with 'memfas.' are"
                + " memfas's own).");
        Map<String, Object> in = new LinkedHashMap<>();
        in.put("key", key);
        in.put("value", prop("string", "One JSON value, as text: {\"step\": 2}, \"a string\", 42, true, null."));
        in.put("namespace", MemfasTools.NAMESPACE);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("key", type("string"));
        registry.add("save_state", "Save state", new MemfasTools.Effects(false, true, true), """
                Saves a JSON value under a key of your state, replacing any value there: what you carry between \
                turns beside memories (a plan, a cursor, a setting).""",
                object(in, List.of("key", "value")), output(out), this::save);

        in = new LinkedHashMap<>();
        in.put("key", key);
        in.put("namespace", MemfasTools.NAMESPACE);
        out = new LinkedHashMap<>();
        out.put("key", type("string"));
        out.put("value", nullable("string"));
        registry.add("load_state", "Load state", MemfasTools.Effects.READS,
                "Reads the JSON value saved under a key; value is null when there is none.",
                object(in, List.of("key")), output(out), this::load);

        in = new LinkedHashMap<>();
        in.put("include_preview", prop("boolean", "Also give each value's first 100 characters (default false)."));
        in.put("namespace", MemfasTools.NAMESPACE);
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("key", type("string"));
        entry.put("updated_at", type("string"));
        entry.put("size", type("integer"));
        entry.put("preview", nullable("string"));
        out = new LinkedHashMap<>();
        out.put("keys", arrayOf(output(entry)));
        registry.add("list_state_keys", "List state keys", MemfasTools.Effects.READS, """
                Lists the keys of your state, sorted, each with when it was saved and its size (and a preview if \
                asked).""",
                object(in, List.of()), output(out), this::list);

        in = new LinkedHashMap<>();
        in.put("glob", prop("string", "A pattern for keys: * any run of characters, ? one, [abc] one of a class."));
        in.put("limit", prop("integer", "At most this many, 1 to 1000 (default " + DEFAULT_SEARCH + ")."));
        in.put("namespace", MemfasTools.NAMESPACE);
        out = new LinkedHashMap<>();
        out.put("values", type("object"));
        registry.add("search_state", "Search state", MemfasTools.Effects.READS,
                "The keys matching a glob, with their values, sorted by key.",
                object(in, List.of("glob")), output(out), this::search);

        in = new LinkedHashMap<>();
        in.put("key", key);
        in.put("namespace", MemfasTools.NAMESPACE);
        out = new LinkedHashMap<>();
        out.put("key", type("string"));
        out.put("deleted", type("boolean"));
        registry.add("delete_state", "Delete state", new MemfasTools.Effects(false, true, true),
                "Deletes one key of your state.", object(in, List.of("key")), output(out), this::delete);

        in = new LinkedHashMap<>();
        in.put("tool_name", prop("string", "The tool that returned the result."));
        in.put("result", prop("string", "What it returned, as text (JSON or not)."));
        in.put("goal", prop("string", "What you were doing (optional)."));
        in.put("namespace", MemfasTools.NAMESPACE);
        out = new LinkedHashMap<>();
        out.put("saved", type("boolean"));
        out.put("key", nullable("string"));
        out.put("reason", type("string"));
        out.put("decided_by", type("string"));
        registry.add("offer", "Offer a result for saving", new MemfasTools.Effects(false, false, true), """
                Offers what a tool returned for saving as state: memfas decides whether it is worth keeping across \
                sessions (not utility tools, one-off queries, errors or trivia) and under which key; it never \
                overwrites a key (a new value becomes a new version).""",
                object(in, List.of("tool_name", "result")), output(out), this::offer);

        in = new LinkedHashMap<>();
        in.put("namespace", MemfasTools.NAMESPACE);
        out = new LinkedHashMap<>();
        out.put("deleted", type("integer"));
        registry.add("clear_state", "Clear state", new MemfasTools.Effects(false, true, true),
                "Deletes every key of your state.", object(in, List.of()), output(out), this::clear);
    }

    McpSchema.CallToolResult save(ToolArguments args) {
        String key = args.requiredString("key");
        String value = args.optionalString("value");
        if (value == null) {
            throw new IllegalArgumentException("missing required argument 'value'");
        }
        curator.state().save(MemfasTools.namespace(args), key, value);
        return MemfasTools.ok("saved " + key, Map.of("key", key));
    }

    McpSchema.CallToolResult load(ToolArguments args) {
        String key = args.requiredString("key");
        String value = curator.state().load(MemfasTools.namespace(args), key).orElse(null);
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("key", key);
        structured.put("value", value);
        return MemfasTools.ok(value == null ? "no state under " + key : value, structured);
    }

    McpSchema.CallToolResult list(ToolArguments args) {
        boolean preview = Boolean.TRUE.equals(args.optionalBoolean("include_preview"));
        List<Map<String, Object>> keys = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (State.Entry e : curator.state().keys(MemfasTools.namespace(args), preview)) {
            Map<String, Object> k = new LinkedHashMap<>();
            k.put("key", e.key());
            k.put("updated_at", e.updatedAt().toString());
            k.put("size", e.size());
            k.put("preview", e.preview());
            keys.add(k);
            text.append(e.key()).append(" (").append(e.size()).append(" chars, ").append(e.updatedAt()).append(')')
                    .append(preview ? ": " + e.preview().replace('\n', ' ') : "").append('\n');
        }
        return MemfasTools.ok(keys.isEmpty() ? "no state keys" : text.toString().strip(), Map.of("keys", keys));
    }

    McpSchema.CallToolResult search(ToolArguments args) {
        String glob = args.requiredString("glob");
        Integer limit = args.optionalInt("limit", 1, 1000);
        Map<String, String> found = curator.state().search(MemfasTools.namespace(args), glob,
                limit == null ? DEFAULT_SEARCH : limit);
        StringBuilder text = new StringBuilder();
        found.forEach((k, v) -> text.append(k).append(": ").append(v.replace('\n', ' ')).append('\n'));
        return MemfasTools.ok(found.isEmpty() ? "no state keys match " + glob : text.toString().strip(),
                Map.of("values", new LinkedHashMap<>(found)));
    }

    McpSchema.CallToolResult delete(ToolArguments args) {
        String key = args.requiredString("key");
        boolean deleted = curator.state().delete(MemfasTools.namespace(args), key);
        return MemfasTools.ok(deleted ? "deleted " + key : "no state under " + key,
                Map.of("key", key, "deleted", deleted));
    }

    McpSchema.CallToolResult offer(ToolArguments args) {
        String tool = args.requiredString("tool_name");
        String result = args.optionalString("result");
        if (result == null) {
            throw new IllegalArgumentException("missing required argument 'result'");
        }
        dev.memfas.State.SaveOutcome o = curator.state()
                .offer(MemfasTools.namespace(args), tool, result, args.optionalString("goal"));
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("saved", o.saved());
        structured.put("key", o.key());
        structured.put("reason", o.reason());
        structured.put("decided_by", o.decidedBy());
        return MemfasTools.ok((o.saved() ? "saved under " + o.key() + ": " : "not saved: ") + o.reason(), structured);
    }

    McpSchema.CallToolResult clear(ToolArguments args) {
        int n = curator.state().clear(MemfasTools.namespace(args));
        return MemfasTools.ok("deleted " + n + (n == 1 ? " key" : " keys"), Map.of("deleted", n));
    }
}
