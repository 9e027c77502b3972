package dev.memfas.mcp;

import static dev.memfas.mcp.ToolSchemas.arrayOf;
import static dev.memfas.mcp.ToolSchemas.nullable;
import static dev.memfas.mcp.ToolSchemas.object;
import static dev.memfas.mcp.ToolSchemas.output;
import static dev.memfas.mcp.ToolSchemas.prop;
import static dev.memfas.mcp.ToolSchemas.strings;
import static dev.memfas.mcp.ToolSchemas.type;

import dev.memfas.ContextCurator;
import dev.memfas.ContextLevel;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.ContextTier;
import dev.memfas.upkeep.UsageReport;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The handlers of the curation tools, {@code get_context}, {@code report_usage} and {@code set_budget}, and the
 * sizes {@code set_budget} sets: the server's default and, for at most {@value #MAX_SESSION_BUDGETS} sessions (the
 * least recently used forgotten), each session's own, and over HTTP each client's own default. {@link MemfasTools}
 * turns their exceptions into tool errors.
 */
final class ContextTools {
    private static final int MAX_SESSION_BUDGETS = 10_000;

    /**
     * A size set by {@code set_budget}: a number of tokens, or a level (whose budget, minimum score and most items).
     */
    private record Size(Integer tokens, ContextLevel level) {
        void applyTo(ContextRequest.Builder request) {
            if (level != null) {
                request.level(level);
            } else {
                request.tokenBudget(tokens);
            }
        }

        int budget() {
            return level != null ? level.tokens() : tokens;
        }
    }

    private final ContextCurator curator;
    private final WorkingContext here;
    private volatile Size defaultSize;
    private final Map<String, Size> sessionSizes = Collections.synchronizedMap(
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Size> eldest) {
                    return size() > MAX_SESSION_BUDGETS;
                }
            });

    ContextTools(ContextCurator curator, Integer defaultBudget, WorkingContext here) {
        this.curator = curator;
        this.here = here;
        this.defaultSize = defaultBudget == null ? null : new Size(defaultBudget, null);
    }

    /** The budget of calls that name none and whose session has none; null for the curator's default. */
    Integer defaultBudget() {
        Size size = defaultSize;
        return size == null ? null : size.budget();
    }

    void declare(MemfasTools.Registry registry) {
        Map<String, Object> in = new LinkedHashMap<>();
        in.put("query", prop("string", "The user's current message or task; omit it at a session's start for its"
                + " working, pinned and latest memories."));
        in.put("session_id", prop("string", "A stable id for this conversation; keeps topic and hot memories across"
                + " turns."));
        in.put("token_budget", prop("integer", "Most tokens the context may use (1 to " + MemfasTools.MAX_BUDGET
                + "); defaults to the level's or tier's, else the session's or server's budget."));
        in.put("level", prop("string", "A named size for this call: minimal (300 tokens), lean (800), balanced (1500,"
                + " also auto), rich (3000) or full (5000), each with its own minimum score and most memories."));
        in.put("tier", prop("string", "A named split of the whole prompt: minimal (about 8K), standard (15K) or"
                + " optimal (50K); the context gets its memory share (2000, 4000 or 8000 tokens)."));
        in.put("include_triggers", prop("boolean", "Whether keyword triggers may pin memories (default true)."));
        in.put("as_of", MemfasTools.AS_OF);
        in.put("include_superseded", MemfasTools.INCLUDE_SUPERSEDED);
        in.put("recent_history", strings("The last few messages of the conversation, newest last; they steer the"
                + " topic, and a query that names almost nothing (\"Tell me more about that.\") is read with them."));
        in.put("project", prop("string", "The project you work in: memories of other projects are left out"
                + " (default: the server's, if it was started with one)."));
        in.put("language", prop("string", "The language you work in: memories of other languages are left out"
                + " (default: the server's, if it was started with one)."));
        in.put("task", prop("string", "What you are doing, in a few words (\"fix the failing login test\"): memories"
                + " of that task rank first."));
        ToolFilters.declare(in);
        in.put("state", strings("State keys or globs (\"plan\", \"session/*\") whose values the context may hold:"
                + " the keys named, and the ones relevant to the query among those a glob matches."));
        in.put("relevance_check", prop("boolean", "Let the server's relevance judge, if it has one, choose which of the"
                + " best memories found go in the context (default false)."));
        in.put("group_by_scope", prop("boolean", "List the memories under one heading per scope, the most specific"
                + " first (default false)."));
        in.put("baseline_tokens", prop("integer", "Tokens your full history would take; logged as the saving."));
        in.put("namespace", MemfasTools.NAMESPACE);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("tokens_used", type("integer"));
        out.put("token_budget", type("integer"));
        out.put("memories_scored", type("integer"));
        out.put("memories_dropped", type("integer"));
        out.put("memory_ids", arrayOf(type("string")));
        out.put("memory_layers", arrayOf(type("string")));
        out.put("triggers_matched", arrayOf(type("string")));
        out.put("topic", type("string"));
        out.put("topic_shifted", type("boolean"));
        out.put("topic_confidence", type("number"));
        out.put("topic_history", arrayOf(type("string")));
        out.put("state_keys", arrayOf(type("string")));
        // Reads memory; the only thing it writes is the memories' use count, which is what ranks them later.
        registry.add("get_context", "Get context", MemfasTools.Effects.READS, """
                Returns the memories most relevant to the current query, curated to fit a token budget, as one \
                <memory_context> block to put before your answer. Call it once per turn with the user's message.""",
                object(in, List.of()), output(out), this::getContext);

        in = new LinkedHashMap<>();
        in.put("session_id", prop("string", "The session the memories were curated for."));
        in.put("memory_ids", strings("Ids of the memories (the id attribute of each <memory> item, or the [id] that"
                + " opens an item's line under a <day> heading)."));
        in.put("was_helpful", prop("boolean", "Whether they helped (default true)."));
        in.put("namespace", MemfasTools.NAMESPACE);
        out = new LinkedHashMap<>();
        out.put("session_id", type("string"));
        out.put("recorded", arrayOf(type("string")));
        out.put("unknown", arrayOf(type("string")));
        out.put("was_helpful", type("boolean"));
        registry.add("report_usage", "Report which memories helped", new MemfasTools.Effects(false, false, false), """
                Tells memfas which of the memories it gave you were used, so helpful ones rank higher later. Ids \
                that name no memory are listed as unknown.""",
                object(in, List.of("session_id", "memory_ids")), output(out), this::reportUsage);

        in = new LinkedHashMap<>();
        in.put("token_budget", prop("integer", "Tokens, 1 to " + MemfasTools.MAX_BUDGET + "."));
        in.put("level", prop("string", "Or a level: minimal, lean, balanced (auto), rich or full."));
        in.put("session_id", prop("string", "The session to set it for; omit to set the default."));
        out = new LinkedHashMap<>();
        out.put("token_budget", type("integer"));
        out.put("level", nullable("string"));
        out.put("session_id", nullable("string"));
        registry.add("set_budget", "Set the token budget", new MemfasTools.Effects(false, false, true), """
                Sets the size of get_context for one session, or for all sessions when no session_id is given: a \
                token budget, or a level. A call that names its own budget, level or tier is not affected.""",
                object(in, List.of()), output(out), this::setBudget);

    }

    McpSchema.CallToolResult getContext(ToolArguments args) {
        String query = args.optionalString("query");
        String session = args.session();
        Integer budget = args.optionalInt("token_budget", 1, MemfasTools.MAX_BUDGET);
        Boolean triggers = args.optionalBoolean("include_triggers");
        Integer baseline = args.optionalInt("baseline_tokens", 0, Integer.MAX_VALUE);
        List<String> history = args.optionalStringList("recent_history");
        ContextRequest.Builder request = ContextRequest.builder(query == null ? "" : query)
                .namespace(MemfasTools.namespace(args));
        if (session != null) {
            request.sessionId(session);
        }
        String level = args.optionalString("level");
        String tier = args.optionalString("tier");
        if (level != null && !level.isBlank()) {
            request.level(ContextLevel.parse(level));
        }
        if (tier != null && !tier.isBlank()) {
            request.tier(ContextTier.parse(tier));
        }
        if (budget != null) {
            request.tokenBudget(budget);
        } else if ((level == null || level.isBlank()) && (tier == null || tier.isBlank())) {
            Size size = session != null ? sessionSizes.get(session) : null;
            if (size == null && args.clientDefaultsKey() != null) {
                size = sessionSizes.get(args.clientDefaultsKey());
            }
            if (size == null) {
                size = defaultSize;
            }
            if (size != null) {
                size.applyTo(request);
            }
        }
        if (triggers != null) {
            request.includeTriggers(triggers);
        }
        if (baseline != null) {
            request.baselineTokens(baseline);
        }
        if (history != null) {
            request.recentHistory(history);
        }
        String project = args.optionalString("project");
        String language = args.optionalString("language");
        request.project(project != null ? project : here.project())
                .language(language != null ? language : here.language()).task(args.optionalString("task"));
        request.relevanceCheck(Boolean.TRUE.equals(args.optionalBoolean("relevance_check")));
        Boolean grouped = args.optionalBoolean("group_by_scope");
        request.groupByScope(grouped != null && grouped);
        request.filter(ToolFilters.readOrNull(args));
        List<String> state = args.optionalStringList("state");
        if (state != null) {
            request.state(state.toArray(String[]::new));
        }
        request.asOf(args.optionalInstant("as_of"));
        Boolean superseded = args.optionalBoolean("include_superseded");
        request.includeSuperseded(superseded != null && superseded);
        ContextResponse r = curator.getContext(request.build());
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("tokens_used", r.tokensUsed());
        structured.put("token_budget", r.budget());
        structured.put("memories_scored", r.memoriesScored());
        structured.put("memories_dropped", r.memoriesDropped());
        structured.put("memory_ids", r.memoryIds());
        structured.put("memory_layers", r.items().stream().map(i -> i.layer().label()).toList());
        structured.put("triggers_matched", r.triggersMatched());
        structured.put("topic", r.topic());
        structured.put("topic_shifted", r.topicShifted());
        structured.put("topic_confidence", r.topicConfidence());
        structured.put("topic_history", r.topicHistory());
        structured.put("state_keys", r.stateKeys());
        return MemfasTools.ok(r.context(), structured);
    }

    McpSchema.CallToolResult reportUsage(ToolArguments args) {
        String session = args.requiredSession();
        String named = args.sessionAsNamed();
        List<String> ids = args.optionalStringList("memory_ids");
        if (ids == null) {
            throw new IllegalArgumentException("missing required argument 'memory_ids'");
        }
        Boolean helpful = args.optionalBoolean("was_helpful");
        boolean h = helpful == null || helpful;
        UsageReport report = curator.upkeep().reportUsage(MemfasTools.namespace(args), session, ids, h);
        int n = report.recorded().size();
        String text = "recorded " + n + (n == 1 ? " memory" : " memories") + " as " + (h ? "helpful" : "not helpful")
                + " in session " + named;
        if (!report.unknown().isEmpty()) {
            text += "; no memory has the id" + (report.unknown().size() == 1 ? " " : "s ")
                    + String.join(", ", report.unknown());
        }
        return MemfasTools.ok(text,
                Map.of("session_id", named, "recorded", report.recorded(), "unknown", report.unknown(),
                "was_helpful", h));
    }

    McpSchema.CallToolResult setBudget(ToolArguments args) {
        Integer budget = args.optionalInt("token_budget", 1, MemfasTools.MAX_BUDGET);
        String levelName = args.optionalString("level");
        boolean hasLevel = levelName != null && !levelName.isBlank();
        if ((budget == null) == !hasLevel) {
            throw new IllegalArgumentException("give either 'token_budget' or 'level'");
        }
        Size size = hasLevel ? new Size(null, ContextLevel.parse(levelName)) : new Size(budget, null);
        String said = size.level() != null ? "level " + size.level().label() + " (" + size.budget() + " tokens)"
                : size.budget() + " tokens";
        String session = args.session();
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("token_budget", size.budget());
        structured.put("level", size.level() == null ? null : size.level().label());
        if (session == null) {
            structured.put("session_id", null);
            if (args.clientDefaultsKey() != null) {
                // One client of several sets its own default, not the other clients'.
                sessionSizes.put(args.clientDefaultsKey(), size);
                return MemfasTools.ok("default size of this client set to " + said, structured);
            }
            defaultSize = size;
            return MemfasTools.ok("default size set to " + said, structured);
        }
        // Checked the way a request checks it, so a bad id fails here and not at the next get_context.
        ContextRequest.builder("check").sessionId(session).build();
        sessionSizes.put(session, size);
        structured.put("session_id", args.sessionAsNamed());
        return MemfasTools.ok("size of session " + args.sessionAsNamed() + " set to " + said, structured);
    }

}
