package dev.memfas.mcp;

import static dev.memfas.mcp.ToolSchemas.arrayOf;
import static dev.memfas.mcp.ToolSchemas.nullable;
import static dev.memfas.mcp.ToolSchemas.object;
import static dev.memfas.mcp.ToolSchemas.output;
import static dev.memfas.mcp.ToolSchemas.prop;
import static dev.memfas.mcp.ToolSchemas.type;

import dev.memfas.upkeep.AgentEvent;
import dev.memfas.ContextCurator;
import dev.memfas.upkeep.EventOutcome;
import dev.memfas.upkeep.MaintenanceReport;
import dev.memfas.upkeep.MaintenanceRequest;
import dev.memfas.Memory;
import dev.memfas.upkeep.Orientation;
import dev.memfas.upkeep.SummarizeRequest;
import dev.memfas.upkeep.SummaryReport;
import dev.memfas.TimeService;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The handlers of the tools about memory over time: {@code maintain}, {@code restore} and {@code time}.
 * {@link MemfasTools} declares them and turns their exceptions into tool errors.
 */
final class LifecycleTools {
    /** The most actions listed in a report's text; the structured content lists them all. */
    private static final int MOST_LISTED = 20;

    private final ContextCurator curator;

    LifecycleTools(ContextCurator curator) {
        this.curator = curator;
    }

    /** Declares the tools: {@code maintain}, {@code restore}, {@code time}, {@code report_event}, {@code orient}. */
    void declare(MemfasTools.Registry registry) {
        Map<String, Object> in = new LinkedHashMap<>();
        in.put("dry_run", prop("boolean", "Only report what would be done (default true)."));
        in.put("purge", prop("boolean", "Delete instead of archiving, and delete what was archived before (default"
                + " false)."));
        in.put("namespace", MemfasTools.NAMESPACE);
        Map<String, Object> action = new LinkedHashMap<>();
        action.put("memory_id", type("string"));
        action.put("action", type("string"));
        action.put("retention", type("number"));
        Map<String, Object> out = new LinkedHashMap<>();
        for (String count : List.of("examined", "archived", "purged", "expired", "pinned")) {
            out.put(count, type("integer"));
        }
        out.put("dry_run", type("boolean"));
        out.put("actions", arrayOf(output(action)));
        registry.add("maintain", "Maintain memory", new MemfasTools.Effects(false, true, false), """
                Archives expired memories and those that aged out unused (kept, but used no more until restored; \
                pinned ones exempt from ageing). A dry run unless dry_run is false.""",
                object(in, List.of()), output(out), this::maintain);

        in = new LinkedHashMap<>();
        in.put("older_than_days", prop("integer", "Only memories dated at least this many days ago (required)."));
        in.put("max_tokens", prop("integer", "The most tokens one summary takes (default "
                + SummarizeRequest.DEFAULT_MAX_TOKENS + ")."));
        in.put("dry_run", prop("boolean", "Only show the summaries that would be written (default true)."));
        in.put("namespace", MemfasTools.NAMESPACE);
        out = new LinkedHashMap<>();
        out.put("examined", type("integer"));
        out.put("summarized", type("integer"));
        out.put("dry_run", type("boolean"));
        out.put("summaries", arrayOf(ToolSchemas.memorySchema()));
        registry.add("summarize", "Summarize old memories", new MemfasTools.Effects(false, true, false), """
                Consolidates old memories: each source's memories older than older_than_days become summaries that \
                supersede them (the originals are archived, restorable). A dry run unless dry_run is false.""",
                object(in, List.of("older_than_days")), output(out), this::summarize);

        in = new LinkedHashMap<>();
        in.put("memory_id", prop("string", "The id of the archived memory."));
        in.put("namespace", MemfasTools.NAMESPACE);
        registry.add("restore", "Restore a memory", new MemfasTools.Effects(false, false, false),
                "Brings an archived memory back into use; the result is the memory as stored.",
                object(in, List.of("memory_id")), ToolSchemas.memorySchema(), this::restore);

        in = new LinkedHashMap<>();
        in.put("timezone", prop("string", "An IANA time zone such as Europe/Berlin, or an offset (default UTC)."));
        in.put("resolve", prop("string", "A time phrase to turn into a window: today, yesterday, last week, next"
                + " Monday, 3 days ago, in 2 weeks, end of month, in March, 3 June 2023, 2026-03-01."));
        Map<String, Object> window = new LinkedHashMap<>();
        window.put("start", type("string"));
        window.put("end", type("string"));
        out = new LinkedHashMap<>();
        out.put("now", type("string"));
        out.put("timezone", type("string"));
        out.put("day_of_week", type("string"));
        out.put("iso_week", type("string"));
        out.put("window", Map.of("anyOf", List.of(output(window), Map.of("type", "null"))));
        registry.add("time", "What time it is", MemfasTools.Effects.READS, """
                Says what time it is on the memory server's clock, in a time zone, and what a phrase such as "last \
                week" means as a window of time.""",
                object(in, List.of()), output(out), this::time);

        in = new LinkedHashMap<>();
        in.put("type", Map.of("type", "string", "enum", List.of("error_occurred", "decision_made", "user_feedback",
                "command_executed", "file_opened", "session_start", "session_end"), "description", "What happened."));
        in.put("text", prop("string", "What happened, in words: the error message, the decision, the feedback."));
        in.put("fix", prop("string", "For an error: how it was fixed, when that is known."));
        in.put("project", prop("string", "The project an error or decision is about: it goes to that project's"
                + " layer (default: global)."));
        in.put("session_id", prop("string", "The session it happened in."));
        in.put("namespace", MemfasTools.NAMESPACE);
        Map<String, Object> pastError = new LinkedHashMap<>();
        pastError.put("memory_id", type("string"));
        pastError.put("text", type("string"));
        pastError.put("fix", nullable("string"));
        out = new LinkedHashMap<>();
        out.put("memory_id", nullable("string"));
        out.put("similar_errors", arrayOf(output(pastError)));
        registry.add("report_event", "Report an event", new MemfasTools.Effects(false, false, false), """
                Reports what happened: an error, a decision or user feedback is remembered (a repeat adds evidence); \
                an error also returns the most similar past errors with what fixed them; session_end drops the \
                session's state.""",
                object(in, List.of("type", "text")), output(out), this::reportEvent);

        in = new LinkedHashMap<>();
        in.put("timezone", prop("string", "An IANA time zone such as Europe/Berlin, or an offset (default UTC)."));
        in.put("namespace", MemfasTools.NAMESPACE);
        out = new LinkedHashMap<>();
        out.put("now", type("string"));
        out.put("last_seen", nullable("string"));
        out.put("away_seconds", nullable("integer"));
        out.put("added", type("integer"));
        out.put("newest", arrayOf(ToolSchemas.memorySchema()));
        registry.add("orient", "Orient after time away", new MemfasTools.Effects(false, false, false), """
                Call at the start of a session: says what time it is, when this memory was last oriented and how long \
                ago, and what was stored since (the newest few). Records now as the last time seen.""",
                object(in, List.of()), output(out), this::orient);
    }

    McpSchema.CallToolResult summarize(ToolArguments args) {
        Integer days = args.optionalInt("older_than_days", 0, 100_000);
        if (days == null) {
            throw new IllegalArgumentException("missing required argument 'older_than_days'");
        }
        Integer maxTokens = args.optionalInt("max_tokens", 16, 10_000);
        Boolean dryRun = args.optionalBoolean("dry_run");
        SummarizeRequest request = SummarizeRequest.of(MemfasTools.namespace(args), java.time.Duration.ofDays(days))
                .maxTokens(maxTokens == null ? SummarizeRequest.DEFAULT_MAX_TOKENS : maxTokens);
        // A dry run unless told otherwise, as for maintain.
        SummaryReport r = curator.upkeep().summarize(dryRun == null || dryRun ? request.asDryRun() : request);
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "%s%d old memories examined, %d"
                + " consolidated into %d summaries", r.dryRun() ? "dry run, nothing changed: " : "", r.examined(),
                r.summarized(), r.summaries().size()));
        for (Memory m : r.summaries().subList(0, Math.min(MOST_LISTED, r.summaries().size()))) {
            text.append('\n').append(m.source()).append(" (").append(m.supersedes().size()).append("): ")
                    .append(m.text().replace('\n', ' '));
        }
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("examined", r.examined());
        structured.put("summarized", r.summarized());
        structured.put("dry_run", r.dryRun());
        structured.put("summaries", r.summaries().stream().map(m -> ToolSchemas.memory(m, null)).toList());
        return MemfasTools.ok(text.toString(), structured);
    }

    McpSchema.CallToolResult maintain(ToolArguments args) {
        Boolean dryRun = args.optionalBoolean("dry_run");
        Boolean purge = args.optionalBoolean("purge");
        // A dry run unless told otherwise: an agent should see what would go before anything goes.
        MaintenanceReport r = curator.upkeep().maintain(new MaintenanceRequest(MemfasTools.namespace(args),
                dryRun == null || dryRun, purge != null && purge));
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "%s%d live memories examined (%d pinned):"
                + " %d archived, %d purged, %d expired archived", r.dryRun() ? "dry run, nothing changed: " : "",
                r.examined(), r.pinned(), r.archived(), r.purged(), r.expired()));
        List<MaintenanceReport.Action> actions = r.actions();
        for (MaintenanceReport.Action a : actions.subList(0, Math.min(MOST_LISTED, actions.size()))) {
            text.append('\n').append(a.kind().name().toLowerCase(Locale.ROOT)).append(' ').append(a.memoryId());
        }
        if (actions.size() > MOST_LISTED) {
            text.append("\n... and ").append(actions.size() - MOST_LISTED).append(" more");
        }
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("dry_run", r.dryRun());
        structured.put("examined", r.examined());
        structured.put("archived", r.archived());
        structured.put("purged", r.purged());
        structured.put("expired", r.expired());
        structured.put("pinned", r.pinned());
        structured.put("actions", actions.stream().map(a -> Map.<String, Object>of("memory_id", a.memoryId(),
                "action", a.kind().name().toLowerCase(Locale.ROOT), "retention", a.retention())).toList());
        return MemfasTools.ok(text.toString(), structured);
    }

    McpSchema.CallToolResult restore(ToolArguments args) {
        String id = args.requiredString("memory_id");
        String namespace = MemfasTools.namespace(args);
        curator.memories().restore(namespace, id);
        return MemfasTools.ok("restored " + id, ToolSchemas.memory(curator.get(namespace, id).orElseThrow()));
    }

    McpSchema.CallToolResult reportEvent(ToolArguments args) {
        String typeName = args.requiredString("type");
        AgentEvent.Type type;
        try {
            type = AgentEvent.Type.valueOf(typeName.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown event type '" + typeName + "' (error_occurred, decision_made,"
                    + " user_feedback, command_executed, file_opened, session_start, session_end)");
        }
        Map<String, String> details = new LinkedHashMap<>();
        for (String key : List.of("fix", "project")) {
            String value = args.optionalString(key);
            if (value != null && !value.isBlank()) {
                details.put(key, value);
            }
        }
        EventOutcome outcome = curator.upkeep()
                .reportEvent(new AgentEvent(type, MemfasTools.namespace(args), args.session(), args
                        .requiredString("text"), details));
        StringBuilder text = new StringBuilder(outcome.remembered() == null ? "noted (not remembered)"
                : "remembered as " + outcome.remembered().id());
        List<Map<String, Object>> similar = new java.util.ArrayList<>();
        for (EventOutcome.PastError p : outcome.similarErrors()) {
            text.append("\nsimilar past error [").append(p.error().id()).append("] ")
                    .append(p.error().text().replace('\n', ' '))
                    .append(p.fix() == null ? " (no fix recorded)" : " — fixed by: " + p.fix());
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("memory_id", p.error().id());
            o.put("text", p.error().text());
            o.put("fix", p.fix());
            similar.add(o);
        }
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("memory_id", outcome.remembered() == null ? null : outcome.remembered().id());
        structured.put("similar_errors", similar);
        return MemfasTools.ok(text.toString(), structured);
    }

    McpSchema.CallToolResult orient(ToolArguments args) {
        ZoneId zone = zone(args);
        Orientation o = curator.upkeep().orient(MemfasTools.namespace(args), zone);
        String now = o.now().local().toOffsetDateTime().toString();
        StringBuilder text = new StringBuilder("now: " + now + " (" + zone.getId() + ")\n");
        text.append(o.lastSeen() == null ? "first orientation: " + o.added() + " memories stored"
                : "last seen " + o.lastSeen() + ", " + TimeService.formatDuration(o.away().negated()) + "; "
                        + o.added() + " memories stored since");
        for (Memory m : o.newest()) {
            text.append("\n[").append(m.id()).append("] ").append(m.text().replace('\n', ' '));
        }
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("now", now);
        structured.put("last_seen", o.lastSeen() == null ? null : o.lastSeen().toString());
        structured.put("away_seconds", o.away() == null ? null : o.away().toSeconds());
        structured.put("added", o.added());
        structured.put("newest", o.newest().stream().map(m -> ToolSchemas.memory(m, null)).toList());
        return MemfasTools.ok(text.toString(), structured);
    }

    /** The zone the arguments name, UTC when none. */
    private static ZoneId zone(ToolArguments args) {
        String zoneName = args.optionalString("timezone");
        try {
            return zoneName == null || zoneName.isBlank() ? ZoneOffset.UTC : ZoneId.of(zoneName.strip());
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("unknown time zone '" + zoneName + "' (an IANA name such as"
                    + " Europe/Berlin, or an offset such as +02:00)");
        }
    }

    McpSchema.CallToolResult time(ToolArguments args) {
        ZoneId zone = zone(args);
        TimeService time = curator.upkeep().time();
        TimeService.TimeAnchor now = time.now(zone);
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("now", now.local().toOffsetDateTime().toString());
        structured.put("timezone", zone.getId());
        structured.put("day_of_week", now.local().getDayOfWeek().toString().toLowerCase(Locale.ROOT));
        structured.put("iso_week", now.isoWeekYear() + "-W" + String.format(Locale.ROOT, "%02d", now.isoWeek()));
        StringBuilder text = new StringBuilder("now: " + structured.get("now") + " (" + structured.get("day_of_week")
                + ", " + structured.get("iso_week") + ", " + zone.getId() + ")");
        String phrase = args.optionalString("resolve");
        if (phrase != null && !phrase.isBlank()) {
            TimeService.TimeWindow w = time.resolve(phrase, zone);
            String start = w.start().atZone(zone).toOffsetDateTime().toString();
            String end = w.end().atZone(zone).toOffsetDateTime().toString();
            structured.put("window", Map.of("start", start, "end", end));
            text.append("\n'").append(phrase.strip()).append("': from ").append(start).append(" to ").append(end);
        } else {
            structured.put("window", null);
        }
        return MemfasTools.ok(text.toString(), structured);
    }
}
