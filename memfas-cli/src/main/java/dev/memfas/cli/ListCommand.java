package dev.memfas.cli;

import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.Scope;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code memfas list}: the memories, newest first, filtered and paged. */
@Command(name = "list", description = "List memories, newest first: filter by date, kind, scope, tag or source; paged.")
final class ListCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @Option(names = "--since", paramLabel = "DATE", description = "Only memories of this day or later (YYYY-MM-DD or"
            + " an ISO-8601 instant).")
    String since;

    @Option(names = "--until", paramLabel = "DATE", description = "Only memories before the end of this day (or before"
            + " this instant).")
    String until;

    @Option(names = "--kind", paramLabel = "KIND", description = "Only this kind.")
    String kind;

    @Option(names = "--scope", paramLabel = "SCOPE", description = "Only this scope (universal, language:NAME,"
            + " project:NAME).")
    String scope;

    @Option(names = "--tag", paramLabel = "TAG", description = "Only memories with this tag (repeat for all of them).")
    List<String> tags = new ArrayList<>();

    @Option(names = "--source", paramLabel = "SOURCE", description = "Only memories whose source starts with this"
            + " (a file name, or a file and section).")
    String source;

    @Option(names = "--limit", paramLabel = "N", description = "Memories per page, 1 to 1000 (default 20).")
    int limit = 20;

    @Option(names = "--page", paramLabel = "P", description = "Which page, from 1 (default 1).")
    int page = 1;

    @Option(names = "--json", description = "One JSON object per line, every field.")
    boolean json;

    @Option(names = "--archived", description = "Only the memories maintenance archived (by default they are left"
            + " out).")
    boolean archived;

    @Override
    public Integer call() {
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("--limit must be in [1, 1000]: " + limit);
        }
        if (page < 1) {
            throw new IllegalArgumentException("--page must be at least 1: " + page);
        }
        MemoryFilter filter = MemoryFilter.all().archived(archived);
        Instant from = since == null ? null : instant("--since", since, false);
        Instant to = until == null ? null : instant("--until", until, true);
        if (from != null) {
            filter = filter.since(from);
        }
        if (kind != null) {
            filter = filter.kind(kind);
        }
        if (scope != null) {
            filter = filter.scope(Scope.parse(scope));
        }
        if (!tags.isEmpty()) {
            filter = filter.tags(tags.toArray(String[]::new));
        }
        PrintWriter out = main.out();
        try (SqliteMemoryStore store = Workspace.openStore(main.settings(), Workspace.Access.READ)) {
            if (store.count(main.namespace()) == 0) {
                Output.emptyStore(out, main.settings().db);
                return Main.OK;
            }
            List<Memory> matching = new ArrayList<>();
            store.forEach(main.namespace(), filter, m -> {
                if ((to == null || m.createdAt().isBefore(to)) && (source == null || m.source().startsWith(source))) {
                    matching.add(m);
                }
            });
            matching.sort(Comparator.comparing(Memory::createdAt).reversed().thenComparing(Memory::id));
            int first = (page - 1) * limit;
            List<Memory> shown = first >= matching.size() ? List.of()
                    : matching.subList(first, Math.min(matching.size(), first + limit));
            for (Memory m : shown) {
                if (json) {
                    Output.json(out, Output.memory(m));
                } else {
                    out.printf(Locale.ROOT, "%s  %-24s %-10s %s%n      %s%n", Output.day(m.createdAt()),
                            Main.oneLine(m.id(), 24), m.kind(), Main.oneLine(m.source(), 60),
                            Main.oneLine(m.text(), 150));
                }
            }
            if (!json) {
                int pages = Math.max(1, (matching.size() + limit - 1) / limit);
                out.printf(Locale.ROOT, "%d of %d matching memories, page %d of %d%s%n", shown.size(),
                        matching.size(), page, pages, page < pages ? " (next: --page " + (page + 1) + ")" : "");
            }
        }
        return Main.OK;
    }

    /** A day (its start, or for {@code --until} the start of the next day) or an ISO-8601 instant. */
    static Instant instant(String option, String value, boolean endOfDay) {
        try {
            LocalDate day = LocalDate.parse(value.strip());
            return (endOfDay ? day.plusDays(1) : day).atStartOfDay(ZoneOffset.UTC).toInstant();
        } catch (DateTimeParseException notADay) {
            try {
                return OffsetDateTime.parse(value.strip()).toInstant();
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(option + " must be YYYY-MM-DD or an ISO-8601 date-time: '"
                        + value + "'");
            }
        }
    }
}
