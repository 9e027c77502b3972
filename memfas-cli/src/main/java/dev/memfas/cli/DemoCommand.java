package dev.memfas.cli;

import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Trigger;
import dev.memfas.core.TelemetryLog;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code memfas demo}: indexes the sample memory set into a fresh store and runs a few turns in two sessions, with a
 * topic shift and a trigger, printing each curated context and the telemetry summary.
 */
@Command(name = "demo", description = "Index the sample memories into a fresh store and curate a few turns.")
final class DemoCommand implements Callable<Integer> {
    private static final List<String[]> TURNS = List.of(
            new String[] {"alice", "We need to deploy billing-api today, what is the procedure?"},
            new String[] {"alice", "And if something goes wrong after the switch, how do we roll back?"},
            new String[] {"bob", "The usage-aggregator consumer is lagging again, what did we do last time?"},
            new String[] {"bob", "How long do we keep usage events in Kafka now?"},
            new String[] {"alice", "Different topic: how should refunds handle currencies like JPY?"});

    @CommandLine.ParentCommand
    Main main;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--from", paramLabel = "DIR",
            description = "The memory set to index (default: docs/examples/memory of this repository).")
    Path from;

    @Option(names = "--budget", paramLabel = "TOKENS", description = "Token budget of each turn (default 400).")
    int budget = 400;

    @Override
    public Integer call() throws IOException {
        if (budget < 1) {
            throw new IllegalArgumentException("--budget must be positive: " + budget);
        }
        Path source = from != null ? from : defaultSource();
        if (!Files.isDirectory(source)) {
            throw new IllegalArgumentException("no sample memory set at " + source.toAbsolutePath()
                    + " (run from the repository root, or pass --from DIR)");
        }
        PrintWriter out = spec.commandLine().getOut();
        Path dir = Files.createTempDirectory("memfas-demo");
        try {
            CliConfig config = main.settings();
            config.db = dir.resolve("memfas.db");
            config.telemetry = dir.resolve("telemetry.jsonl");
            config.triggers.add(Trigger.of("deploy", "Production deploys only Tuesday to Thursday; follow the deploy"
                    + " checklist of 2026-11-22."));
            out.println("== memfas demo: a fresh store in " + dir);
            out.println("   model " + config.model + "; memories from " + source);
            try (Workspace w = Workspace.open(config, Workspace.Access.WRITE, true,
                    note -> spec.commandLine().getErr().println("memfas: " + note))) {
                MemoryFiles files = new MemoryFiles(config.chunkTargetTokens, config.chunkOverlapTokens);
                Indexer.Report r = new Indexer(w.curator, w.store, files, config.maxFileBytes, source, w::loadModel)
                        .index(List.of(source), Indexer.Progress.none());
                out.printf(Locale.ROOT, "   indexed %d files into %d memories; trigger 'deploy' added%n%n",
                        r.filesIndexed(), r.added());
                for (String[] turn : TURNS) {
                    ContextResponse c = w.curator.getContext(ContextRequest.builder(turn[1]).sessionId(turn[0])
                            .tokenBudget(budget).build());
                    out.printf(Locale.ROOT, "== session %s: \"%s\"%n", turn[0], turn[1]);
                    out.printf(Locale.ROOT, "   %d of %d tokens, %d memories, topic '%s'%s%s, %.1f ms%n",
                            c.tokensUsed(), c.budget(), c.items().size(), c.topic(),
                            c.topicShifted() ? " (topic shift)" : "",
                            c.triggersMatched().isEmpty() ? "" : ", triggers " + c.triggersMatched(),
                            c.latency().toNanos() / 1e6);
                    out.println(c.context());
                    out.println();
                }
            }
            out.println("== telemetry summary");
            TelemetryCommand.print(out, TelemetryLog.summarize(config.telemetry));
            return Main.OK;
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static Path defaultSource() {
        String home = System.getProperty("memfas.home");
        Path base = home != null ? Path.of(home) : Path.of("");
        return base.resolve("docs/examples/memory");
    }
}
