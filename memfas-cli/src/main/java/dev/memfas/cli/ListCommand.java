package dev.memfas.cli;

import dev.memfas.spi.MemoryStore;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
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
@Command(name = "list", description = "List memories, newest first: filter by date, author, kind, scope, tag, source"
        + " or topic; paged.")
final class ListCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @CommandLine.Mixin
    FilterOptions filters = new FilterOptions();

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
        MemoryFilter filter = filters.filter(MemoryFilter.all().archived(archived));
        PrintWriter out = main.out();
        List<Memory> matching = new ArrayList<>();
        if (filter.topic() != null) {
            // A topic is read by the model: the curator applies it.
            try (Workspace w = main.open(Workspace.Access.READ, false)) {
                matching.addAll(w.curator.memories().list(main.namespace(), filter, 0, 1000));
            }
        } else {
            try (MemoryStore store = Workspace.openStore(main.settings(), Workspace.Access.READ)) {
                if (store.count(main.namespace()) == 0) {
                    Output.emptyStore(out, main.settings().where());
                    return Main.OK;
                }
                store.forEach(main.namespace(), filter, matching::add);
            }
        }
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
