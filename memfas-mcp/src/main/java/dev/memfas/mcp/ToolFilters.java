package dev.memfas.mcp;

import static dev.memfas.mcp.ToolSchemas.prop;
import static dev.memfas.mcp.ToolSchemas.strings;

import dev.memfas.MemoryFilter;
import dev.memfas.Scope;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The filter arguments that {@code list}, {@code recall} and {@code get_context} share: by date, author, kind, scope,
 * tags, source and topic ({@link MemoryFilter}).
 */
final class ToolFilters {
    private ToolFilters() {}

    /** Adds the filter arguments to a tool's input properties. */
    static void declare(Map<String, Object> in) {
        in.put("since", prop("string", "Only memories created at or after this (ISO-8601 or YYYY-MM-DD)."));
        in.put("until", prop("string", "Only memories created before this (ISO-8601 or YYYY-MM-DD)."));
        in.put("author", prop("string", "Only memories by this author."));
        in.put("kind", prop("string", "Only memories of this kind."));
        in.put("scope", prop("string", "Only memories of exactly this scope."));
        in.put("tags", strings("Only memories with every one of these tags."));
        in.put("source", prop("string", "Only memories whose source begins with this (a file name finds its"
                + " sections)."));
        in.put("topic", prop("string", "Only memories about this phrase (by meaning, or by its words without a"
                + " model)."));
    }

    /** The filter the call's arguments describe, narrowing {@code start}. */
    static MemoryFilter read(ToolArguments args, MemoryFilter start) {
        MemoryFilter filter = start;
        Instant since = args.optionalInstant("since");
        if (since != null) {
            filter = filter.since(since);
        }
        Instant until = args.optionalInstant("until");
        if (until != null) {
            filter = filter.until(until);
        }
        String author = given(args, "author");
        if (author != null) {
            filter = filter.author(author);
        }
        String kind = given(args, "kind");
        if (kind != null) {
            filter = filter.kind(kind);
        }
        String scope = given(args, "scope");
        if (scope != null) {
            filter = filter.scope(Scope.parse(scope));
        }
        List<String> tags = args.optionalStringList("tags");
        if (tags != null && !tags.isEmpty()) {
            filter = filter.tags(tags.toArray(String[]::new));
        }
        String source = given(args, "source");
        if (source != null) {
            filter = filter.source(source);
        }
        String topic = given(args, "topic");
        if (topic != null) {
            filter = filter.topic(topic);
        }
        return filter;
    }

    /** The filter the call's arguments describe, or null when they name none. */
    static MemoryFilter readOrNull(ToolArguments args) {
        MemoryFilter filter = read(args, MemoryFilter.all());
        return filter.equals(MemoryFilter.all()) ? null : filter;
    }

    private static String given(ToolArguments args, String name) {
        String value = args.optionalString(name);
        return value == null || value.isBlank() ? null : value;
    }
}
