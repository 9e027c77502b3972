package dev.memfas.mcp;

import static dev.memfas.mcp.ToolSchemas.arrayOf;
import static dev.memfas.mcp.ToolSchemas.nullable;
import static dev.memfas.mcp.ToolSchemas.object;
import static dev.memfas.mcp.ToolSchemas.output;
import static dev.memfas.mcp.ToolSchemas.prop;
import static dev.memfas.mcp.ToolSchemas.strings;
import static dev.memfas.mcp.ToolSchemas.type;

import dev.memfas.ContextCurator;
import dev.memfas.CuratorStats;
import dev.memfas.MemfasException;
import dev.memfas.Memory;
import dev.memfas.RecallHit;
import dev.memfas.RecallRequest;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The memfas tools and their handlers, independent of the transport: each call is answered with a result, and every
 * failure (bad arguments, a store error, a bug) becomes a tool error with a one-line message, never an exception.
 * Every tool that returns structured content declares its output schema; every tool says whether it only reads,
 * destroys or can be repeated safely.
 */
final class MemfasTools {
    private static final Logger LOG = LoggerFactory.getLogger(MemfasTools.class);
    static final int MAX_BUDGET = 1_000_000;
    private static final int MAX_RECALL = 100;
    static final int MAX_LIST = 200;
    static final Map<String, Object> AS_OF = prop("string", "Ask about an earlier moment (ISO-8601 or"
            + " YYYY-MM-DD): only memories true then, and written by then, are used (default now).");
    static final Map<String, Object> INCLUDE_SUPERSEDED = prop("boolean", "Also use memories that are no"
            + " longer true (superseded or past their validity), each marked with what replaced it (default false).");
    static final Map<String, Object> NAMESPACE = prop("string", "The tenant to work in (default: default).");

    private final ContextCurator curator;
    private final MemoryTools memories;
    private final LifecycleTools lifecycle;
    private final ContextTools context;
    /** The namespaces of calls whose transport names none: the one served, or any. */
    private final Tenants tenants;
    private final ToolSelection selection;
    /** Every tool the server has, as declared. */
    private final Map<String, Declared> declared = new LinkedHashMap<>();
    /** The tools offered, with the arguments the selection offers. */
    private final Map<String, Tool> tools = new LinkedHashMap<>();

    /** A tool: its description for the client, and its handler. */
    record Tool(McpSchema.Tool schema, Set<String> arguments, Function<ToolArguments, McpSchema.CallToolResult> handler) {}

    /** A tool as declared, with every argument it can take. */
    private record Declared(String title, Effects effects, String description, Map<String, Object> inputSchema,
            Map<String, Object> outputSchema, Function<ToolArguments, McpSchema.CallToolResult> handler) {}

    /** What a tool promises about its effects, as MCP tool annotations. */
    record Effects(boolean readOnly, boolean destructive, boolean idempotent) {
        static final Effects READS = new Effects(true, false, true);

        McpSchema.ToolAnnotations annotations() {
            // No title here: the tool's own title says it, and every character is read by the model on every turn.
            return McpSchema.ToolAnnotations.builder().readOnlyHint(readOnly)
                    .destructiveHint(destructive).idempotentHint(idempotent).openWorldHint(false).build();
        }
    }

    /** Every tool, with every argument. */
    MemfasTools(ContextCurator curator, Integer defaultBudget) {
        this(curator, defaultBudget, WorkingContext.NONE, "full");
    }

    /**
     * @param tools the profiles and tools offered ({@link ToolSelection})
     * @throws IllegalArgumentException if the selection names neither a profile nor a tool
     */
    MemfasTools(ContextCurator curator, Integer defaultBudget, WorkingContext here, String tools) {
        this.curator = curator;
        this.tenants = here.namespace() == null ? Tenants.ANY : Tenants.only(here.namespace());
        this.memories = new MemoryTools(curator);
        this.lifecycle = new LifecycleTools(curator);
        this.context = new ContextTools(curator, defaultBudget, here);
        context.declare(this::add);
        new ScopeTools(curator, here).declare(this::add);
        new PatternTools(curator).declare(this::add);
        new ConversationTools(curator).declare(this::add);
        Map<String, Object> in = new LinkedHashMap<>();
        in.put("text", prop("string", "The memory, one self-contained statement."));
        in.put("id", prop("string", "Its id; a memory with this id is replaced (default: a new id)."));
        in.put("supersedes", prop("string", "The id of a memory this one makes no longer true; it is kept, marked"
                + " superseded."));
        in.put("kind", prop("string", "What it is: note, fact, decision, preference, lesson, ... (default note)."));
        in.put("scope", prop("string", "universal, language:NAME, project:NAME or project:NAME:task:TASK (default"
                + " universal)."));
        in.put("tags", strings("Labels for filtering."));
        in.put("source", prop("string", "Where it came from, e.g. a file or conversation (default mcp)."));
        in.put("author", prop("string", "Who wrote or said it (default: unknown)."));
        in.put("pinned", prop("boolean", "Pin it: in every context while the budget has room (default false)."));
        in.put("created_at", prop("string", "When it happened, ISO-8601 or YYYY-MM-DD (default now); recency is"
                + " measured from it."));
        in.put("expires_at", prop("string", "When it stops being used, ISO-8601 or YYYY-MM-DD (default never)."));
        in.put("valid_from", prop("string", "When what it says became true, ISO-8601 or YYYY-MM-DD (default always)."));
        in.put("valid_until", prop("string", "When what it says stopped being true (default: still true)."));
        in.put("session_id", prop("string", "The session whose working memory may hold it (tag temp, expires_at,"
                + " kind scratchpad, or layer working)."));
        in.put("project", prop("string", "The project a project-layer memory is about, when its scope says none."));
        in.put("layer", prop("string", "working, project or global, whatever the routing rules say (default: the"
                + " rules choose)."));
        in.put("namespace", NAMESPACE);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("memory_id", type("string"));
        out.put("layer", type("string"));
        out.put("reason", type("string"));
        out.put("duplicate", type("boolean"));
        out.put("replaced", type("boolean"));
        add("remember", "Remember", new Effects(false, false, false), """
                Stores a fact, decision, preference or lesson worth recalling in later turns. With an id, it replaces \
                the memory of that id; with supersedes, it marks an older memory no longer true.""",
                object(in, List.of("text")), output(out), memories::remember);

        in = new LinkedHashMap<>();
        in.put("query", prop("string", "What to search for."));
        in.put("limit", prop("integer", "Most results, 1 to " + MAX_RECALL + " (default 10)."));
        in.put("as_of", AS_OF);
        in.put("include_superseded", INCLUDE_SUPERSEDED);
        ToolFilters.declare(in);
        in.put("namespace", NAMESPACE);
        Map<String, Object> hit = new LinkedHashMap<>();
        hit.put("memory_id", type("string"));
        hit.put("score", type("number"));
        hit.put("text", type("string"));
        hit.put("source", type("string"));
        hit.put("created_at", type("string"));
        hit.put("superseded_by", nullable("string"));
        out = new LinkedHashMap<>();
        out.put("results", arrayOf(output(hit)));
        add("recall", "Search memories", Effects.READS, """
                Searches the stored memories and lists the best matches with their ids, scores and dates (no budget, \
                no session, nothing recorded).""",
                object(in, List.of("query")), output(out), this::recall);

        in = new LinkedHashMap<>();
        in.put("memory_id", prop("string", "The id of the memory."));
        in.put("namespace", NAMESPACE);
        add("get", "Get a memory", Effects.READS, "Reads one memory by its id: every field and its use count.",
                object(in, List.of("memory_id")), ToolSchemas.memorySchema(), memories::get);

        in = new LinkedHashMap<>();
        ToolFilters.declare(in);
        in.put("pinned", prop("boolean", "Only pinned memories."));
        in.put("archived", prop("boolean", "List the archived memories instead of the live ones (default false)."));
        in.put("limit", prop("integer", "Most memories, 1 to " + MAX_LIST + " (default 20)."));
        in.put("offset", prop("integer", "How many to skip, for the next page (default 0)."));
        in.put("namespace", NAMESPACE);
        out = new LinkedHashMap<>();
        out.put("memories", arrayOf(ToolSchemas.memorySchema()));
        out.put("next_offset", nullable("integer"));
        add("list", "List memories", Effects.READS, """
                Lists memories newest first, filtered by kind, scope, tags, date or pinning, a page at a time.""",
                object(in, List.of()), output(out), memories::list);

        in = new LinkedHashMap<>();
        in.put("memory_id", prop("string", "The id of the memory to change."));
        in.put("text", prop("string", "New text."));
        in.put("kind", prop("string", "New kind."));
        in.put("scope", prop("string", "New scope."));
        in.put("tags", strings("New tags (replacing the old)."));
        in.put("source", prop("string", "New source."));
        in.put("pinned", prop("boolean", "Pin or unpin it."));
        in.put("expires_at", prop("string", "New expiry, ISO-8601 or YYYY-MM-DD."));
        in.put("namespace", NAMESPACE);
        add("update", "Update a memory", new Effects(false, true, true), """
                Changes some fields of a memory and keeps the rest (and its use count); the result is the memory as \
                stored.""",
                object(in, List.of("memory_id")), ToolSchemas.memorySchema(), memories::update);

        in = new LinkedHashMap<>();
        in.put("memory_id", prop("string", "The id of the memory that is no longer true."));
        in.put("text", prop("string", "What is true now, one self-contained statement."));
        in.put("id", prop("string", "The new memory's id (default: a new id)."));
        in.put("kind", prop("string", "Its kind (default: the old memory's)."));
        in.put("scope", prop("string", "Its scope (default: the old memory's)."));
        in.put("tags", strings("Its tags (default: the old memory's)."));
        in.put("valid_from", prop("string", "When it became true, ISO-8601 or YYYY-MM-DD (default now); the old memory"
                + " is valid until then."));
        in.put("namespace", NAMESPACE);
        add("supersede", "Supersede a memory", new Effects(false, false, false), """
                Replaces a memory that is no longer true by a new one. The old memory is kept, marked superseded: \
                contexts and searches leave it out unless asked (include_superseded, as_of). The result is the new \
                memory as stored.""",
                object(in, List.of("memory_id", "text")), ToolSchemas.memorySchema(), memories::supersede);

        in = new LinkedHashMap<>();
        in.put("memory_id", prop("string", "The id of the memory."));
        in.put("namespace", NAMESPACE);
        Map<String, Object> version = new LinkedHashMap<>();
        version.put("version", type("integer"));
        version.put("changed", arrayOf(type("string")));
        version.put("memory", ToolSchemas.memorySchema());
        out = new LinkedHashMap<>();
        out.put("versions", arrayOf(output(version)));
        add("history", "A memory's history", Effects.READS, """
                Lists every state a memory has had, oldest first: who wrote it (author), when (updated_at) and \
                which fields changed.""",
                object(in, List.of("memory_id")), output(out), memories::history);

        lifecycle.declare(this::add);
        new LayerTools(curator).declare(this::add);
        new TriggerTools(curator).declare(this::add);
        new StateTools(curator).declare(this::add);

        in = new LinkedHashMap<>();
        in.put("memory_id", prop("string", "The id of the memory to delete."));
        in.put("namespace", NAMESPACE);
        out = new LinkedHashMap<>();
        out.put("memory_id", type("string"));
        out.put("found", type("boolean"));
        add("forget", "Forget a memory", new Effects(false, true, true), "Deletes one memory by its id.",
                object(in, List.of("memory_id")), output(out), memories::forget);

        this.selection = ToolSelection.parse(tools, declared.keySet());
        declared.forEach((name, d) -> {
            if (selection.offers(name)) {
                offer(name, d);
            }
        });
    }

    /** Declares tools: for the handler classes that declare their own ({@link LifecycleTools#declare}). */
    @FunctionalInterface
    interface Registry {
        void add(String name, String title, Effects effects, String description, Map<String, Object> inputSchema,
                Map<String, Object> outputSchema, Function<ToolArguments, McpSchema.CallToolResult> handler);
    }

    private void add(String name, String title, Effects effects, String description, Map<String, Object> inputSchema,
            Map<String, Object> outputSchema, Function<ToolArguments, McpSchema.CallToolResult> handler) {
        if (declared.put(name, new Declared(title, effects, description.strip(), inputSchema, outputSchema, handler))
                != null) {
            throw new IllegalStateException("tool declared twice: " + name);
        }
    }

    /** Offers a declared tool with the arguments the selection offers of it. */
    private void offer(String name, Declared d) {
        @SuppressWarnings("unchecked")
        Map<String, Object> all = (Map<String, Object>) d.inputSchema().get("properties");
        @SuppressWarnings("unchecked")
        List<String> required = (List<String>) d.inputSchema().get("required");
        Map<String, Object> properties = new LinkedHashMap<>();
        for (String argument : selection.arguments(name, all.keySet())) {
            properties.put(argument, all.get(argument));
        }
        Map<String, Object> input = object(properties, required.stream().filter(properties::containsKey).toList());
        McpSchema.Tool tool = new McpSchema.Tool.Builder().name(name).title(d.title()).description(d.description())
                .inputSchema(input).outputSchema(d.outputSchema()).annotations(d.effects().annotations()).build();
        tools.put(name, new Tool(tool, Set.copyOf(properties.keySet()), d.handler()));
    }

    /** The tools offered, in the order of the whole set. */
    List<Tool> tools() {
        return List.copyOf(tools.values());
    }

    /** Answers one call; never throws. */
    McpSchema.CallToolResult call(String name, Map<String, Object> arguments) {
        return call(name, arguments, null, null);
    }

    /**
     * Answers a call of one client of several (over HTTP), whose sessions are its own: see
     * {@link ToolArguments#session()}. A null client is the one client of a stdio server.
     *
     * @param caller the namespaces this caller may work in, as its transport vouches for (its token over HTTP); null
     *     for the server's own (the namespace it was told to serve, or any)
     */
    McpSchema.CallToolResult call(String name, Map<String, Object> arguments, String client, Tenants caller) {
        Tool tool = tools.get(name);
        if (tool == null) {
            return error("unknown tool '" + name + "' (this server offers " + String.join(", ", tools.keySet())
                    + (declared.containsKey(name) ? "; '" + name + "' is in the profile 'full'" : "") + ")");
        }
        try {
            return tool.handler().apply(new ToolArguments(name, arguments, tool.arguments(),
                    caller != null ? caller : tenants, client));
        } catch (IllegalArgumentException | NullPointerException | MemfasException e) {
            return error(name + ": " + e.getMessage());
        } catch (IllegalStateException e) {
            return error(name + ": memfas is not available: " + e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("{} failed", name, e);
            return error(name + ": internal error (" + e.getClass().getSimpleName() + "); see the server log");
        }
    }

    // ---------------------------------------------------------------- handlers

    static String namespace(ToolArguments args) {
        return args.namespace();
    }

    private McpSchema.CallToolResult recall(ToolArguments args) {
        String query = args.requiredString("query");
        Integer limit = args.optionalInt("limit", 1, MAX_RECALL);
        Boolean superseded = args.optionalBoolean("include_superseded");
        List<RecallHit> hits = curator.recall(RecallRequest.builder(query).namespace(namespace(args))
                .limit(limit == null ? 10 : limit).asOf(args.optionalInstant("as_of"))
                .includeSuperseded(superseded != null && superseded).filter(ToolFilters.readOrNull(args)).build());
        StringBuilder text = new StringBuilder();
        List<Map<String, Object>> results = new ArrayList<>();
        for (int i = 0; i < hits.size(); i++) {
            RecallHit hit = hits.get(i);
            Memory m = hit.memory();
            text.append(i + 1).append(". [").append(m.id()).append("] (")
                    .append(String.format(java.util.Locale.ROOT, "%.3f", hit.score())).append(", ")
                    .append(m.createdAt().toString(), 0, 10)
                    .append(m.isSuperseded() ? ", superseded by " + m.supersededBy() : "").append(") ")
                    .append(m.text().replace('\n', ' ')).append('\n');
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("memory_id", m.id());
            r.put("score", hit.score());
            r.put("text", m.text());
            r.put("source", m.source());
            r.put("created_at", m.createdAt().toString());
            r.put("superseded_by", m.supersededBy());
            results.add(r);
        }
        return ok(hits.isEmpty() ? "no memories match" : text.toString().strip(), Map.of("results", results));
    }

    // ---------------------------------------------------------------- stats resource

    /** The statistics resource, as the server's own client sees it. */
    Map<String, Object> stats() {
        return stats(null);
    }

    /**
     * The statistics resource: the curator's counts and the server's default budget. A caller confined to namespaces
     * sees the counts of its default namespace only; a caller who may use any, the counts of all.
     */
    Map<String, Object> stats(Tenants caller) {
        Tenants t = caller != null ? caller : tenants;
        CuratorStats s = t.namespaces().isEmpty() ? curator.stats() : curator.stats(t.defaultNamespace());
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("memories", s.memories());
        stats.put("vectors", s.vectors());
        stats.put("triggers", s.triggers());
        stats.put("active_sessions", s.activeSessions());
        stats.put("turns", s.turns());
        stats.put("embedder_model", s.embedderModel());
        stats.put("tokenizer", s.tokenizer());
        stats.put("default_token_budget", context.defaultBudget());
        return stats;
    }

    static McpSchema.CallToolResult ok(String text, Map<String, Object> structured) {
        return McpSchema.CallToolResult.builder().addTextContent(text).structuredContent(structured).isError(false)
                .build();
    }

    private static McpSchema.CallToolResult error(String message) {
        return McpSchema.CallToolResult.builder().addTextContent(message).isError(true).build();
    }
}
