package dev.memfas.cli;

import dev.memfas.MemoryFilter;
import dev.memfas.Scope;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The filter options of {@code list}, {@code context} and {@code recall}: by date, author, kind, scope, tags, source and topic. */
final class FilterOptions {
    @Option(names = "--since", paramLabel = "DATE", description = "Only memories of this day or later (YYYY-MM-DD or"
            + " an ISO-8601 instant).")
    String since;

    @Option(names = "--until", paramLabel = "DATE", description = "Only memories before the end of this day (or before"
            + " this instant).")
    String until;

    @Option(names = "--author", paramLabel = "NAME", description = "Only memories by this author.")
    String author;

    @Option(names = "--kind", paramLabel = "KIND", description = "Only this kind.")
    String kind;

    @Option(names = "--scope", paramLabel = "SCOPE", description = "Only this scope (universal, language:NAME,"
            + " project:NAME, project:NAME:task:TASK).")
    String scope;

    @Option(names = "--tag", paramLabel = "TAG", description = "Only memories with this tag (repeat for all of them).")
    List<String> tags = new ArrayList<>();

    @Option(names = "--source", paramLabel = "SOURCE", description = "Only memories whose source starts with this"
            + " (a file name, or a file and section).")
    String source;

    @Option(names = "--topic", paramLabel = "PHRASE", description = "Only memories about this phrase (by meaning with"
            + " the model, by its words without one).")
    String topic;

    /** {@code start} narrowed by every option given. */
    MemoryFilter filter(MemoryFilter start) {
        MemoryFilter f = start;
        if (since != null) {
            f = f.since(ListCommand.instant("--since", since, false));
        }
        if (until != null) {
            f = f.until(ListCommand.instant("--until", until, true));
        }
        if (author != null) {
            f = f.author(author);
        }
        if (kind != null) {
            f = f.kind(kind);
        }
        if (scope != null) {
            f = f.scope(Scope.parse(scope));
        }
        if (!tags.isEmpty()) {
            f = f.tags(tags.toArray(String[]::new));
        }
        if (source != null) {
            f = f.source(source);
        }
        if (topic != null) {
            f = f.topic(topic);
        }
        return f;
    }

    /** The filter the options give, or null when none was given. */
    MemoryFilter orNull() {
        MemoryFilter f = filter(MemoryFilter.all());
        return f.equals(MemoryFilter.all()) ? null : f;
    }
}
