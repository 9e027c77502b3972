package dev.memfas.cli;

import dev.memfas.Memories;
import dev.memfas.MemoryFilter;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code memfas patterns}: the recurring memories of the namespace, most frequent first. */
@Command(name = "patterns", description = "Recurring memories: the same fix, convention or habit written in several"
        + " sessions or files, most frequent first.")
final class PatternsCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @CommandLine.Mixin
    FilterOptions filters = new FilterOptions();

    @Option(names = "--limit", paramLabel = "N", description = "At most this many patterns, 1 to 100 (default 10).")
    int limit = 10;

    @Option(names = "--json", description = "One JSON object per pattern.")
    boolean json;

    @Override
    public Integer call() {
        if (limit < 1 || limit > 100) {
            throw new IllegalArgumentException("--limit must be in [1, 100]: " + limit);
        }
        MemoryFilter filter = filters.filter(MemoryFilter.all());
        PrintWriter out = main.out();
        try (Workspace w = main.open(Workspace.Access.READ, false)) {
            List<Memories.Pattern> patterns = w.curator.memories().patterns(main.namespace(), filter, limit);
            for (Memories.Pattern p : patterns) {
                if (json) {
                    Map<String, Object> o = new LinkedHashMap<>();
                    o.put("label", p.label());
                    o.put("count", p.count());
                    o.put("sources", p.sources());
                    o.put("latest", Output.memory(p.latest()));
                    o.put("memory_ids", p.memoryIds());
                    Output.json(out, o);
                } else {
                    out.printf(Locale.ROOT, "%d× %s (%d sources)%n   latest %s  %s  %s%n", p.count(),
                            Main.oneLine(p.label(), 80), p.sources(), Output.day(p.latest().createdAt()),
                            Main.oneLine(p.latest().id(), 24), Main.oneLine(p.latest().text(), 120));
                }
            }
            if (!json) {
                out.printf(Locale.ROOT, "%d pattern%s among the latest %d memories%n", patterns.size(),
                        patterns.size() == 1 ? "" : "s", Memories.PATTERN_SCAN);
            }
        }
        return Main.OK;
    }
}
