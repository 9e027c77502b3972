package dev.memfas.cli;

import dev.memfas.Memory;
import dev.memfas.RecallHit;
import dev.memfas.RecallRequest;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code memfas recall QUERY}: a plain ranked search; records nothing. */
@Command(name = "recall", description = "Plain ranked search over the memories; records nothing.")
final class RecallCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @Parameters(paramLabel = "QUERY")
    String query;

    @Option(names = "--limit", paramLabel = "N", description = "Most results, 1 to 1000 (default 10).")
    int limit = 10;

    @Option(names = "--json", description = "One JSON object per line: the memory, its score and factors.")
    boolean json;

    @CommandLine.Mixin
    PastOptions past = new PastOptions();

    @CommandLine.Mixin
    FilterOptions filters = new FilterOptions();

    @Override
    public Integer call() {
        PrintWriter out = main.out();
        try (Workspace w = main.open(Workspace.Access.READ, false)) {
            if (w.store.count(main.namespace()) == 0) {
                Output.emptyStore(out, w.config.where());
                return Main.OK;
            }
            RecallRequest.Builder request = RecallRequest.builder(query).namespace(main.namespace()).limit(limit)
                    .includeSuperseded(past.includeSuperseded).asOf(past.asOf()).filter(filters.orNull());
            List<RecallHit> hits = w.curator.recall(request.build());
            for (int i = 0; i < hits.size(); i++) {
                RecallHit h = hits.get(i);
                Memory m = h.memory();
                if (json) {
                    Map<String, Object> o = Output.memory(m);
                    o.put("score", h.score());
                    o.put("rank", i + 1);
                    Output.json(out, o);
                } else {
                    out.printf(Locale.ROOT, "%2d. %.3f  %s  %s  %s%s%n      %s%n", i + 1, h.score(),
                            Output.day(m.createdAt()), m.id(), m.source(),
                            m.isSuperseded() ? "  (superseded by " + m.supersededBy() + ")" : "",
                            Main.oneLine(m.text(), 160));
                }
            }
            if (hits.isEmpty() && !json) {
                out.println("no memories match");
            }
        }
        return Main.OK;
    }
}
