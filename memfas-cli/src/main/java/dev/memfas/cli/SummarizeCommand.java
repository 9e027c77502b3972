package dev.memfas.cli;

import dev.memfas.Memory;
import dev.memfas.upkeep.SummarizeRequest;
import dev.memfas.upkeep.SummaryReport;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code memfas summarize --older-than 90d}: old memories consolidated into summaries; a dry run by flag. */
@Command(name = "summarize", description = {"Consolidate old memories: each source's memories older than the given"
        + " age become summaries (at most 20 memories each) that supersede them.",
    "The originals are archived, not deleted ('memfas list --archived', 'memfas restore ID')."})
final class SummarizeCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @Option(names = "--older-than", required = true, paramLabel = "AGE", description = "How old a memory must be:"
            + " a number with d, h, m or s, like 90d.")
    String olderThan;

    @Option(names = "--max-tokens", paramLabel = "N", description = "The most tokens one summary takes (default"
            + " ${DEFAULT-VALUE}).")
    int maxTokens = SummarizeRequest.DEFAULT_MAX_TOKENS;

    @Option(names = "--dry-run", description = "Print the summaries that would be written; change nothing.")
    boolean dryRun;

    @Option(names = "--json", description = "Print the report as one JSON object, the summaries included.")
    boolean json;

    @Override
    public Integer call() {
        SummarizeRequest request = SummarizeRequest.of(main.namespace(),
                TelemetryCommand.parseDuration("--older-than", olderThan)).maxTokens(maxTokens);
        PrintWriter out = main.out();
        try (Workspace w = main.open(Workspace.Access.READ, false)) {
            SummaryReport r = w.curator.upkeep().summarize(dryRun ? request.asDryRun() : request);
            if (json) {
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("dry_run", r.dryRun());
                o.put("examined", r.examined());
                o.put("summarized", r.summarized());
                o.put("summaries", r.summaries().stream().map(Output::memory).toList());
                Output.json(out, o);
                return Main.OK;
            }
            out.printf("%s%d old memories examined; %s %d into %d summaries%n", r.dryRun() ? "dry run: " : "",
                    r.examined(), r.dryRun() ? "would consolidate" : "consolidated", r.summarized(),
                    r.summaries().size());
            for (Memory s : r.summaries()) {
                out.printf("%s  %s  %d memories  %s%n", r.dryRun() ? "(not written)" : s.id(), s.source(),
                        s.supersedes().size(), Main.oneLine(s.text(), 120));
            }
        }
        return Main.OK;
    }
}
