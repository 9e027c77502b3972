package dev.memfas.mcp;

import static dev.memfas.mcp.ToolSchemas.arrayOf;
import static dev.memfas.mcp.ToolSchemas.nullable;
import static dev.memfas.mcp.ToolSchemas.object;
import static dev.memfas.mcp.ToolSchemas.output;
import static dev.memfas.mcp.ToolSchemas.prop;
import static dev.memfas.mcp.ToolSchemas.type;

import dev.memfas.ContextCurator;
import dev.memfas.Conversation;
import dev.memfas.Memory;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The handler of {@code remember_conversation}: chat messages as memories, with the facts taken from them
 * ({@link dev.memfas.Memories#remember(Conversation, boolean)}), or with {@code dry_run} what would be stored.
 * {@link MemfasTools} turns its exceptions into tool errors.
 */
final class ConversationTools {
    /** The most messages one call takes. */
    static final int MAX_MESSAGES = 500;
    /** The source of a conversation that names neither a source nor a session. */
    static final String DEFAULT_SOURCE = "conversation";

    private final ContextCurator curator;

    ConversationTools(ContextCurator curator) {
        this.curator = curator;
    }

    void declare(MemfasTools.Registry registry) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("author", type("string"));
        message.put("text", type("string"));
        message.put("at", type("string"));
        Map<String, Object> in = new LinkedHashMap<>();
        in.put("messages", Map.of("type", "array", "items", object(message, List.of("author", "text")),
                "description", "The messages, oldest first (at most " + MAX_MESSAGES + "); at is ISO-8601."));
        in.put("source", prop("string", "Where they were said (default: the session_id, else conversation)."));
        in.put("session_id", prop("string", "The conversation's session."));
        in.put("dry_run", prop("boolean", "Show what would be stored, store nothing (default false)."));
        in.put("namespace", MemfasTools.NAMESPACE);
        Map<String, Object> fact = new LinkedHashMap<>();
        fact.put("id", type("string"));
        fact.put("text", type("string"));
        fact.put("kind", type("string"));
        fact.put("from_turns", arrayOf(type("string")));
        fact.put("duplicate_of", nullable("string"));
        fact.put("updates", nullable("string"));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("turn_ids", arrayOf(type("string")));
        out.put("facts", arrayOf(object(fact, List.of())));
        out.put("dry_run", type("boolean"));
        out.put("facts_pending", type("boolean"));
        registry.add("remember_conversation", "Remember a conversation", new MemfasTools.Effects(false, false, false),
                """
                Stores chat messages as memories, one per message, with the short facts they state (preferences, \
                decisions, dates, facts about people), each linked to its messages. A fact already stored is not \
                stored again. With dry_run, says what would be stored.""",
                object(in, List.of("messages")), output(out), this::remember);
    }

    McpSchema.CallToolResult remember(ToolArguments args) {
        List<Map<String, Object>> given = args.requiredObjectList("messages");
        if (given.size() > MAX_MESSAGES) {
            throw new IllegalArgumentException("argument 'messages' holds " + given.size() + " messages (at most "
                    + MAX_MESSAGES + ")");
        }
        List<Conversation.Message> messages = new ArrayList<>(given.size());
        for (int i = 0; i < given.size(); i++) {
            messages.add(message(given.get(i), i));
        }
        String source = args.optionalString("source");
        if (source == null || source.isBlank()) {
            String session = args.optionalString("session_id");
            source = session == null || session.isBlank() ? DEFAULT_SOURCE : session;
        }
        boolean dryRun = Boolean.TRUE.equals(args.optionalBoolean("dry_run"));
        Conversation.Remembered r = curator.memories().remember(
                new Conversation(MemfasTools.namespace(args), source, messages), dryRun);
        StringBuilder text = new StringBuilder(dryRun ? "would store " : "stored ").append(r.turns().size())
                .append(r.turns().size() == 1 ? " message" : " messages");
        List<Map<String, Object>> facts = new ArrayList<>();
        for (Conversation.Fact f : r.facts()) {
            Memory m = f.memory();
            text.append("\n- ").append(f.duplicateOf() != null ? "already known [" + f.duplicateOf() + "]"
                    : "[" + m.id() + "]").append(" (").append(m.kind()).append(") ")
                    .append(m.text().replace('\n', ' '));
            if (f.updates() != null) {
                text.append(" (updates [").append(f.updates()).append("])");
            }
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("id", m.id());
            o.put("text", m.text());
            o.put("kind", m.kind());
            o.put("from_turns", f.fromTurns());
            o.put("duplicate_of", f.duplicateOf());
            o.put("updates", f.updates());
            facts.add(o);
        }
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("turn_ids", r.turns().stream().map(Memory::id).toList());
        structured.put("facts", facts);
        structured.put("dry_run", r.dryRun());
        structured.put("facts_pending", r.factsPending());
        if (r.factsPending()) {
            text.append("; the facts are being taken, and are stored when the extractor answers");
        }
        return MemfasTools.ok(text.toString(), structured);
    }

    private static Conversation.Message message(Map<String, Object> fields, int i) {
        for (String key : fields.keySet()) {
            if (!List.of("author", "text", "at").contains(key)) {
                throw new IllegalArgumentException("messages[" + i + "]: unknown field '" + key
                        + "' (a message has author, text and at)");
            }
        }
        if (!(fields.get("author") instanceof String author) || !(fields.get("text") instanceof String text)
                || author.isBlank() || text.isBlank()) {
            throw new IllegalArgumentException("messages[" + i + "] needs an author and a text, neither blank");
        }
        Instant at = null;
        if (fields.get("at") != null) {
            try {
                at = OffsetDateTime.parse(String.valueOf(fields.get("at")).strip()).toInstant();
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("messages[" + i + "].at must be an ISO-8601 date-time: '"
                        + fields.get("at") + "'");
            }
        }
        return new Conversation.Message(author, text, at);
    }
}
