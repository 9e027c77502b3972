package dev.memfas.cli;

import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.Trigger;
import dev.memfas.core.telemetry.TelemetryLog;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code memfas demo}: a team's memory (the hand-written sample set in {@code docs/examples/memory}, inside three
 * months of generated daily logs about the same services and people) in a fresh store, then six turns in two
 * sessions, each printing how much of the whole memory it sent, its context, and the first its explanation.
 */
@Command(name = "demo", description = "Curate a realistic memory (a few hundred notes) into a small budget, turn by"
        + " turn, in a fresh temporary store.")
final class DemoCommand implements Callable<Integer> {
    private static final List<String[]> TURNS = List.of(
            new String[] {"alice", "We need to deploy billing-api today, what is the procedure?"},
            new String[] {"alice", "And if something goes wrong after the switch, how do we roll back?"},
            new String[] {"bob", "The usage-aggregator consumer is lagging again, what did we do last time?"},
            new String[] {"bob", "How long do we keep usage events in Kafka now?"},
            new String[] {"alice", "Different topic: how should refunds handle currencies like JPY?"},
            // Far from everything stored: the session's topic shifts, and nothing is relevant enough to send.
            new String[] {"alice", "Something else entirely: which houseplants survive in a dark flat?"});
    /** The background logs end the Friday before the sample set's week, so the notes that matter are the newest. */
    private static final LocalDate BACKGROUND_FROM = LocalDate.of(2026, 5, 18);
    private static final LocalDate BACKGROUND_TO = LocalDate.of(2026, 11, 13);

    @CommandLine.ParentCommand
    Main main;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--from", paramLabel = "DIR",
            description = "The hand-written memory set (default: docs/examples/memory of this repository).")
    Path from;

    @Option(names = "--budget", paramLabel = "TOKENS", description = "Token budget of each turn (default 600).")
    int budget = 600;

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
        PrintWriter err = spec.commandLine().getErr();
        Path dir = Files.createTempDirectory("memfas-demo");
        try {
            Path corpus = dir.resolve("memory-set");
            copy(source, corpus);
            int generated = DemoCorpus.write(corpus.resolve("memory"), BACKGROUND_FROM, BACKGROUND_TO, 42);
            CliConfig config = main.settings();
            config.useDb(dir.resolve("memfas.db"));
            if (config.telemetry != null) {
                config.telemetry = dir.resolve("telemetry.jsonl");
            }
            config.triggers.add(Trigger.of("deploy", "Production deploys only Tuesday to Thursday; follow the deploy"
                    + " checklist of 2026-11-22."));
            out.println("== memfas demo: a fresh store in " + dir);
            try (Workspace w = Workspace.open(config, Workspace.Access.WRITE, true,
                    note -> err.println("memfas: " + note))) {
                MemoryFiles files = new MemoryFiles(config.chunkTargetTokens, config.chunkOverlapTokens);
                Indexer.Report r = new Indexer(w.curator, w.store, Memory.DEFAULT_NAMESPACE, files,
                        config.maxFileBytes, corpus, w::loadModel)
                        .index(List.of(corpus), System.console() != null ? Indexer.Progress.bar(System.err, 20)
                                : Indexer.Progress.none());
                long[] all = {0, 0};
                w.store.forEach(Memory.DEFAULT_NAMESPACE, MemoryFilter.all(), m -> {
                    all[0]++;
                    all[1] += MemoryFiles.tokens(m.text());
                });
                int everything = (int) Math.min(Integer.MAX_VALUE, all[1]);
                out.printf(Locale.ROOT, "   indexed %d files (%d of them %d days of generated team logs) into %d"
                        + " memories, %,d tokens in all%n", r.filesIndexed(), generated, generated, all[0], everything);
                out.println("   (the generated logs are everyday noise about the same services and people: standups,"
                        + " reviews, small incidents, upgrades)");
                out.printf(Locale.ROOT, "   sending them all would cost %,d tokens every turn; memfas sends at most %d%n"
                        + "   trigger 'deploy' added%n%n", everything, budget);
                boolean first = true;
                for (String[] turn : TURNS) {
                    ContextResponse c = w.curator.getContext(ContextRequest.builder(turn[1]).sessionId(turn[0])
                            .tokenBudget(budget).baselineTokens(everything).explain(first).build());
                    out.printf(Locale.ROOT, "== session %s: \"%s\"%n", turn[0], turn[1]);
                    out.printf(Locale.ROOT, "   sent %d of %,d tokens (%.1f%% saved), %d memories, topic '%s'%s%s,"
                            + " %.1f ms%n", c.tokensUsed(), everything,
                            100.0 * (everything - c.tokensUsed()) / Math.max(1, everything), c.items().size(),
                            c.topic(), c.topicShifted() ? " (topic shift)" : "",
                            c.triggersMatched().isEmpty() ? "" : ", triggers " + c.triggersMatched(),
                            c.latency().toNanos() / 1e6);
                    out.println(c.context());
                    if (first) {
                        out.println();
                        out.println("-- why these memories (what 'memfas context QUERY --explain' prints):");
                        ContextCommand.explain(out, c, ContextCommand.read(w, Memory.DEFAULT_NAMESPACE, c));
                        first = false;
                    }
                    out.println();
                }
            }
            if (config.telemetry != null && Files.exists(config.telemetry)) {
                out.println("== telemetry summary");
                TelemetryCommand.print(out, TelemetryLog.summarize(config.telemetry));
                out.println();
            }
            out.println("next: try it on your own notes:");
            out.println("  ./memfas index MEMORY.md memory/ notes/");
            out.println("  ./memfas context \"what did we decide about the API?\" --explain");
            out.println("  ./memfas help    (every command), and docs/cli.md");
            return Main.OK;
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.sorted().toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    // With its time: a note with no date of its own is as old as its file.
                    Files.copy(p, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    private static Path defaultSource() {
        String home = System.getProperty("memfas.home");
        Path base = home != null ? Path.of(home) : Path.of("");
        return base.resolve("docs/examples/memory");
    }
}
