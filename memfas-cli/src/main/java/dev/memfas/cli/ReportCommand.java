package dev.memfas.cli;

import dev.memfas.config.internal.OwnerOnly;

import dev.memfas.MemfasException;
import dev.memfas.telemetry.ExtractionTelemetry;
import dev.memfas.telemetry.TurnTelemetry;
import dev.memfas.telemetry.UsageTelemetry;
import dev.memfas.core.telemetry.TelemetryLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code memfas report}: the telemetry log as one self-contained HTML page of charts and tables. */
@Command(name = "report", description = "Write the telemetry as one self-contained HTML page: tokens against the"
        + " baseline, latency, budget use, topic shifts, the most included memories and how many helped.")
final class ReportCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @Option(names = "--since", paramLabel = "DURATION", description = "Only turns this recent (7d, 24h); default all.")
    String since;

    @Option(names = "--out", paramLabel = "FILE", description = "Where to write the page (default report.html).")
    Path out = Path.of("report.html");

    @Option(names = "--file", paramLabel = "FILE",
            description = "Telemetry log (default: the config's, ./.memfas/telemetry.jsonl).")
    Path file;

    @Option(names = "--all-namespaces", description = "Report every namespace's turns, as the store's operator"
            + " (default: only the command's namespace).")
    boolean allNamespaces;

    @Override
    public Integer call() throws IOException {
        Path log = TelemetryCommand.existingLog(file != null ? file : main.settings().telemetry);
        Instant from = since == null ? Instant.MIN
                : Instant.now().minus(TelemetryCommand.parseDuration("--since", since));
        String namespace = allNamespaces ? null : main.namespace();
        String period = (since == null ? "The whole log" : "The last " + since)
                + (namespace == null ? "" : ", namespace " + namespace);
        String page;
        Counted counted;
        try (Workspace w = openStoreIfAny()) {
            counted = read(log, from, namespace);
            page = HtmlReport.render(counted.numbers(), period, texts(w), Instant.now());
        }
        Path target = out.toAbsolutePath();
        if (target.getParent() != null) {
            OwnerOnly.createDirectories(target.getParent());
        }
        // The page shows queries and memories: a new one is the owner's alone.
        OwnerOnly.ensureFile(target);
        Files.writeString(target, page, StandardCharsets.UTF_8);
        main.out().println("wrote " + out + ": " + counted.turns() + " turns, " + counted.usage() + " usage reports");
        return Main.OK;
    }

    /** What a report shows, and how many turns and usage reports it is made of. */
    record Counted(ReportNumbers numbers, int turns, int usage) {}

    /** The turns, usage reports and facts taken of a log since a moment, of one namespace or (null) of all. */
    static Counted read(Path log, Instant from, String namespace) {
        List<TurnTelemetry> turns = TelemetryLog.read(log).stream()
                .filter(t -> !t.timestamp().isBefore(from) && (namespace == null || namespace.equals(t.namespace())))
                .toList();
        List<UsageTelemetry> usage = TelemetryLog.readUsage(log).stream()
                .filter(u -> !u.timestamp().isBefore(from) && (namespace == null || namespace.equals(u.namespace())))
                .toList();
        List<ExtractionTelemetry> extractions = TelemetryLog.readExtractions(log).stream()
                .filter(e -> !e.timestamp().isBefore(from) && (namespace == null || namespace.equals(e.namespace())))
                .toList();
        return new Counted(ReportNumbers.of(turns, usage, extractions), turns.size(), usage.size());
    }

    /** A memory's text by namespace and id, from the workspace's store; null without a store or such a memory. */
    static BiFunction<String, String, String> texts(Workspace w) {
        return (ns, id) -> w == null ? null : w.curator.get(ns, id).map(s -> s.memory().text()).orElse(null);
    }

    /** The store, to show memories by their text; none when there is no store (the ids are shown instead). */
    private Workspace openStoreIfAny() {
        try {
            return main.open(Workspace.Access.READ, false);
        } catch (IllegalArgumentException | MemfasException e) {
            main.err().println("memfas: the report shows memory ids only: " + e.getMessage());
            return null;
        }
    }
}
