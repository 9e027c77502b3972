package dev.memfas.mcp;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.CuratorStats;
import dev.memfas.MemfasException;
import dev.memfas.Memory;
import dev.memfas.RecallHit;
import dev.memfas.Scope;
import dev.memfas.UsageReport;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.Collections;
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
 */
final class MemfasTools {
    private static final Logger LOG = LoggerFactory.getLogger(MemfasTools.class);
    static final int MAX_BUDGET = 1_000_000;
    private static final int MAX_SESSION_BUDGETS = 10_000;
    private static final int MAX_RECALL = 100;

    private final ContextCurator curator;
    private volatile Integer defaultBudget;
    private final Map<String, Integer> sessionBudgets = Collections.synchronizedMap(
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
                    return size() > MAX_SESSION_BUDGETS;
                }
            });
    private final Map<String, Tool> tools = new LinkedHashMap<>();

    /** A tool: its description for the client, and its handler. */
    record Tool(McpSchema.Tool schema, Set<String> arguments, Function<ToolArguments, McpSchema.CallToolResult> handler) {}

    MemfasTools(ContextCurator curator, Integer defaultBudget) {
        this.curator = curator;
        this.defaultBudget = defaultBudget;
        add("get_context", """
                Returns the memories most relevant to the current query, curated to fit a token budget, as one \
                <memory_context> block to put before your answer. Call it once per turn with the user's message.""",
                schema(Map.of(
                        "query", prop("string", "The user's current message or task."),
                        "session_id", prop("string", "A stable id for this conversation; keeps topic and hot memories"
                                + " across turns."),
                        "token_budget", prop("integer", "Most tokens the context may use (1 to " + MAX_BUDGET
                                + "); defaults to the session's or server's budget."),
                        "include_triggers", prop("boolean", "Whether keyword triggers may pin memories (default true)."),
                        "recent_history", Map.of("type", "array", "items", Map.of("type", "string"),
                                "description", "The last few messages of the conversation, newest last; they steer"
                                        + " the topic.")),
                        List.of("query")),
                this::getContext);
        add("report_usage", """
                Tells memfas which of the memories it gave you were used, so helpful ones rank higher later.""",
                schema(Map.of(
                        "session_id", prop("string", "The session the memories were curated for."),
                        "memory_ids", Map.of("type", "array", "items", Map.of("type", "string"),
                                "description", "Ids of the memories (the id attribute of each <memory> item)."),
                        "was_helpful", prop("boolean", "Whether they helped (default true).")),
                        List.of("session_id", "memory_ids")),
                this::reportUsage);
        add("set_budget", """
                Sets the token budget of get_context for one session, or for all sessions when no session_id is \
                given.""",
                schema(Map.of(
                        "token_budget", prop("integer", "Tokens, 1 to " + MAX_BUDGET + "."),
                        "session_id", prop("string", "The session to set it for; omit to set the default.")),
                        List.of("token_budget")),
                this::setBudget);
        add("remember", """
                Stores a memory: a fact, decision, preference or lesson worth recalling in later turns.""",
                schema(Map.of(
                        "text", prop("string", "The memory, one self-contained statement."),
                        "kind", prop("string", "What it is: note, fact, decision, preference, lesson, ... (default"
                                + " note)."),
                        "scope", prop("string", "universal, language:NAME or project:NAME (default universal)."),
                        "tags", Map.of("type", "array", "items", Map.of("type", "string"),
                                "description", "Labels for filtering.")),
                        List.of("text")),
                this::remember);
        add("recall", """
                Searches the stored memories and lists the best matches with their ids and scores (no budget, no \
                session).""",
                schema(Map.of(
                        "query", prop("string", "What to search for."),
                        "limit", prop("integer", "Most results, 1 to " + MAX_RECALL + " (default 10).")),
                        List.of("query")),
                this::recall);
        add("forget", "Deletes one memory by its id.",
                schema(Map.of("memory_id", prop("string", "The id of the memory to delete.")), List.of("memory_id")),
                this::forget);
    }

    private void add(String name, String description, Map<String, Object> inputSchema,
            Function<ToolArguments, McpSchema.CallToolResult> handler) {
        @SuppressWarnings("unchecked")
        Set<String> arguments = ((Map<String, Object>) inputSchema.get("properties")).keySet();
        McpSchema.Tool tool = McpSchema.Tool.builder().name(name).description(description.strip())
                .inputSchema(inputSchema).build();
        tools.put(name, new Tool(tool, Set.copyOf(arguments), handler));
    }

    private static Map<String, Object> schema(Map<String, Object> properties, List<String> required) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", new LinkedHashMap<>(properties));
        schema.put("required", required);
        schema.put("additionalProperties", false);
        return schema;
    }

    private static Map<String, Object> prop(String type, String description) {
        return Map.of("type", type, "description", description);
    }

    List<Tool> tools() {
        return List.copyOf(tools.values());
    }

    /** Answers one call; never throws. */
    McpSchema.CallToolResult call(String name, Map<String, Object> arguments) {
        Tool tool = tools.get(name);
        if (tool == null) {
            return error("unknown tool '" + name + "' (known: " + String.join(", ", tools.keySet()) + ")");
        }
        try {
            return tool.handler().apply(new ToolArguments(name, arguments, tool.arguments()));
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

    private McpSchema.CallToolResult getContext(ToolArguments args) {
        String query = args.requiredString("query");
        String session = args.optionalString("session_id");
        Integer budget = args.optionalInt("token_budget", 1, MAX_BUDGET);
        Boolean triggers = args.optionalBoolean("include_triggers");
        List<String> history = args.optionalStringList("recent_history");
        ContextRequest.Builder request = ContextRequest.builder(query);
        if (session != null && !session.isBlank()) {
            request.sessionId(session);
        }
        Integer effective = budget != null ? budget : session != null ? sessionBudgets.get(session) : null;
        if (effective == null) {
            effective = defaultBudget;
        }
        if (effective != null) {
            request.tokenBudget(effective);
        }
        if (triggers != null) {
            request.includeTriggers(triggers);
        }
        if (history != null) {
            request.recentHistory(history);
        }
        ContextResponse r = curator.getContext(request.build());
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("tokens_used", r.tokensUsed());
        structured.put("token_budget", r.budget());
        structured.put("memory_ids", r.memoryIds());
        structured.put("triggers_matched", r.triggersMatched());
        structured.put("topic", r.topic());
        structured.put("topic_shifted", r.topicShifted());
        return McpSchema.CallToolResult.builder().addTextContent(r.context()).structuredContent(structured)
                .isError(false).build();
    }

    private McpSchema.CallToolResult reportUsage(ToolArguments args) {
        String session = args.requiredString("session_id");
        List<String> ids = args.optionalStringList("memory_ids");
        if (ids == null) {
            throw new IllegalArgumentException("missing required argument 'memory_ids'");
        }
        Boolean helpful = args.optionalBoolean("was_helpful");
        boolean h = helpful == null || helpful;
        UsageReport report = curator.reportUsage(session, ids, h);
        int n = report.recorded().size();
        String text = "recorded " + n + (n == 1 ? " memory" : " memories") + " as " + (h ? "helpful" : "not helpful")
                + " in session " + session;
        if (!report.unknown().isEmpty()) {
            text += "; no memory has the id" + (report.unknown().size() == 1 ? " " : "s ")
                    + String.join(", ", report.unknown());
        }
        return ok(text, Map.of("session_id", session, "recorded", report.recorded(), "unknown", report.unknown(),
                "was_helpful", h));
    }

    private McpSchema.CallToolResult setBudget(ToolArguments args) {
        Integer budget = args.optionalInt("token_budget", 1, MAX_BUDGET);
        if (budget == null) {
            throw new IllegalArgumentException("missing required argument 'token_budget'");
        }
        String session = args.optionalString("session_id");
        if (session == null || session.isBlank()) {
            defaultBudget = budget;
            return ok("default token budget set to " + budget, Map.of("token_budget", budget));
        }
        // Checked the way a request checks it, so a bad id fails here and not at the next get_context.
        ContextRequest.builder("check").sessionId(session).build();
        sessionBudgets.put(session, budget);
        return ok("token budget of session " + session + " set to " + budget,
                Map.of("token_budget", budget, "session_id", session));
    }

    private McpSchema.CallToolResult remember(ToolArguments args) {
        Memory.Builder memory = Memory.builder(args.requiredString("text")).source("mcp");
        String kind = args.optionalString("kind");
        if (kind != null && !kind.isBlank()) {
            memory.kind(kind);
        }
        String scope = args.optionalString("scope");
        if (scope != null && !scope.isBlank()) {
            memory.scope(Scope.parse(scope));
        }
        List<String> tags = args.optionalStringList("tags");
        if (tags != null) {
            memory.tags(tags);
        }
        Memory stored = curator.remember(memory.build());
        return ok("remembered as " + stored.id(), Map.of("memory_id", stored.id()));
    }

    private McpSchema.CallToolResult recall(ToolArguments args) {
        String query = args.requiredString("query");
        Integer limit = args.optionalInt("limit", 1, MAX_RECALL);
        List<RecallHit> hits = curator.recall(query, limit == null ? 10 : limit);
        StringBuilder text = new StringBuilder();
        List<Map<String, Object>> results = new ArrayList<>();
        for (int i = 0; i < hits.size(); i++) {
            RecallHit hit = hits.get(i);
            text.append(i + 1).append(". [").append(hit.memory().id()).append("] (")
                    .append(String.format(java.util.Locale.ROOT, "%.3f", hit.score())).append(") ")
                    .append(hit.memory().text().replace('\n', ' ')).append('\n');
            results.add(Map.of("memory_id", hit.memory().id(), "score", hit.score(), "text", hit.memory().text(),
                    "source", hit.memory().source()));
        }
        return ok(hits.isEmpty() ? "no memories match" : text.toString().strip(), Map.of("results", results));
    }

    private McpSchema.CallToolResult forget(ToolArguments args) {
        String id = args.requiredString("memory_id");
        boolean found = curator.forget(id);
        return ok(found ? "forgot " + id : "no memory with id " + id, Map.of("memory_id", id, "found", found));
    }

    // ---------------------------------------------------------------- stats resource

    /** The statistics resource: the curator's counts and the server's default budget. */
    Map<String, Object> stats() {
        CuratorStats s = curator.stats();
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("memories", s.memories());
        stats.put("vectors", s.vectors());
        stats.put("triggers", s.triggers());
        stats.put("active_sessions", s.activeSessions());
        stats.put("turns", s.turns());
        stats.put("embedder_model", s.embedderModel());
        stats.put("tokenizer", s.tokenizer());
        stats.put("default_token_budget", defaultBudget);
        return stats;
    }

    private static McpSchema.CallToolResult ok(String text, Map<String, Object> structured) {
        return McpSchema.CallToolResult.builder().addTextContent(text).structuredContent(structured).isError(false)
                .build();
    }

    private static McpSchema.CallToolResult error(String message) {
        return McpSchema.CallToolResult.builder().addTextContent(message).isError(true).build();
    }
}
