package dev.memfas.cli;

import dev.memfas.config.internal.ConfigFile;
import dev.memfas.config.internal.OwnerOnly;

import dev.memfas.MemfasException;
import dev.memfas.telemetry.ExtractionTelemetry;
import dev.memfas.telemetry.TurnTelemetry;
import dev.memfas.core.telemetry.TelemetryLog;
import dev.memfas.core.telemetry.TelemetrySummary;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code memfas telemetry show | summary | export | tail}: the per-turn log of the curator. */
@Command(name = "telemetry", description = "Show, summarize, export or follow the per-turn telemetry log.",
        subcommands = {TelemetryCommand.Show.class, TelemetryCommand.Summary.class, TelemetryCommand.Export.class,
            TelemetryCommand.Tail.class})
final class TelemetryCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--file", scope = CommandLine.ScopeType.INHERIT, paramLabel = "FILE",
            description = "Telemetry log (default: the config's, ./.memfas/telemetry.jsonl).")
    Path file;

    @Option(names = "--all-namespaces", scope = CommandLine.ScopeType.INHERIT, description = "Read every"
            + " namespace's turns, as the store's operator (default: only the command's namespace).")
    boolean allNamespaces;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return Main.OK;
    }

    Path log() {
        return existingLog(file != null ? file : main.settings().telemetry);
    }

    /**
     * The telemetry log to read, if there is one.
     *
     * @param log the log named by {@code --file} or the settings; null when telemetry is off
     * @throws IllegalArgumentException saying why there is none, in a sentence
     */
    static Path existingLog(Path log) {
        if (log == null) {
            throw new IllegalArgumentException("telemetry is off (--no-telemetry, or 'telemetry: off' in the config),"
                    + " so there is no log to read; name one with --file");
        }
        if (!Files.isRegularFile(log)) {
            throw new IllegalArgumentException("there is no telemetry log at " + log.toAbsolutePath() + " yet: 'memfas"
                    + " context', 'memfas mcp' and 'memfas demo' write it there, or name another with --file");
        }
        return log;
    }

    /** The namespace whose turns are read: the command's; null with {@code --all-namespaces}. */
    String namespace() {
        return allNamespaces ? null : main.namespace();
    }

    /** The turns of the log: only those of the command's namespace, unless {@code --all-namespaces}. */
    List<TurnTelemetry> turns(Path log) {
        String namespace = namespace();
        List<TurnTelemetry> turns = TelemetryLog.read(log);
        return namespace == null ? turns : turns.stream().filter(t -> namespace.equals(t.namespace())).toList();
    }

    /** A positive duration written as a number and s, m, h or d ({@code 24h}, {@code 90d}), given as {@code option}. */
    static Duration parseDuration(String option, String text) {
        return ConfigFile.duration(text, option);
    }

    static String line(TurnTelemetry t) {
        return String.format(Locale.ROOT, "%s  %-12s #%-3d %5d/%-5d tokens  %2d items  %6.1f ms  %s%s  %s",
                t.timestamp(), Main.oneLine(t.sessionId() == null ? "-" : t.sessionId(), 12), t.turn(),
                t.curatedTokens(), t.budget(), t.memoriesIncluded(), t.latency().toNanos() / 1e6, t.topic(),
                t.topicShifted() ? " (shift)" : "", t.query() == null ? "" : Main.oneLine(t.query(), 60));
    }

    @Command(name = "show", description = "List recent turns.")
    static final class Show implements Callable<Integer> {
        @CommandLine.ParentCommand
        TelemetryCommand parent;

        @Option(names = "--last", paramLabel = "DURATION", description = "Only turns this recent (24h, 30m, 7d).")
        String last;

        @Override
        public Integer call() {
            Instant since = last == null ? Instant.MIN : Instant.now().minus(parseDuration("--last", last));
            PrintWriter out = parent.spec.commandLine().getOut();
            parent.turns(parent.log()).stream().filter(t -> !t.timestamp().isBefore(since))
                    .forEach(t -> out.println(line(t)));
            return Main.OK;
        }
    }

    @Command(name = "summary", description = "Totals: turns, tokens saved, latency, topics, most used memories,"
            + " facts taken and their cost.")
    static final class Summary implements Callable<Integer> {
        @CommandLine.ParentCommand
        TelemetryCommand parent;

        @Option(names = "--session", paramLabel = "ID", description = "Only this session.")
        String session;

        @Override
        public Integer call() {
            List<TurnTelemetry> turns = parent.turns(parent.log()).stream()
                    .filter(t -> session == null || session.equals(t.sessionId())).toList();
            PrintWriter out = parent.spec.commandLine().getOut();
            print(out, TelemetrySummary.of(turns));
            if (session == null) {
                String namespace = parent.namespace();
                printExtractions(out, TelemetryLog.readExtractions(parent.log()).stream()
                        .filter(e -> namespace == null || namespace.equals(e.namespace())).toList());
            }
            return Main.OK;
        }
    }

    static void print(PrintWriter out, TelemetrySummary s) {
        out.printf(Locale.ROOT, "turns: %d in %d sessions%n", s.turns(), s.sessions());
        out.printf(Locale.ROOT, "curated tokens: %d", s.curatedTokens());
        if (s.baselineTokens() > 0) {
            out.printf(Locale.ROOT, " (baseline %d, saved %d", s.baselineTokens(), s.tokensSaved());
            s.compressionRatio().ifPresent(r -> out.printf(Locale.ROOT, ", ratio %.2f", r));
            if (s.bestCompression().isPresent()) {
                out.printf(Locale.ROOT, ", best %.2f, worst %.2f", s.bestCompression().getAsDouble(),
                        s.worstCompression().getAsDouble());
            }
            out.print(")");
        }
        out.println();
        out.printf(Locale.ROOT, "memories: %d scored, %d included, %d left out%n", s.memoriesScored(),
                s.memoriesIncluded(), s.memoriesDropped());
        out.printf(Locale.ROOT, "latency: mean %.1f ms, p50 %.1f ms, p95 %.1f ms, max %.1f ms%n",
                s.latencyAverage().toNanos() / 1e6, s.latencyP50().toNanos() / 1e6, s.latencyP95().toNanos() / 1e6,
                s.latencyMax().toNanos() / 1e6);
        if (!s.topics().isEmpty()) {
            out.println("topics: " + join(s.topics()));
        }
        if (!s.mostUsedMemories().isEmpty()) {
            out.println("most used memories: " + join(s.mostUsedMemories()));
        }
    }

    /** What remembered conversations' facts gave and cost, if any conversation was remembered. */
    static void printExtractions(PrintWriter out, List<ExtractionTelemetry> extractions) {
        if (extractions.isEmpty()) {
            return;
        }
        long facts = extractions.stream().mapToLong(ExtractionTelemetry::facts).sum();
        long failed = extractions.stream().filter(ExtractionTelemetry::failed).count();
        long read = extractions.stream().mapToLong(ExtractionTelemetry::inputTokens).sum();
        long written = extractions.stream().mapToLong(ExtractionTelemetry::outputTokens).sum();
        double cost = extractions.stream().mapToDouble(ExtractionTelemetry::cost).sum();
        out.printf(Locale.ROOT, "facts: %d from %d conversations (%d failed); model tokens %d read, %d written;"
                + " cost %.4f%n", facts, extractions.size(), failed, read, written, cost);
    }

    private static String join(Map<String, Integer> counts) {
        StringBuilder sb = new StringBuilder();
        counts.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ", ").append(k).append(" (").append(v)
                .append(')'));
        return sb.toString();
    }

    @Command(name = "export", description = "Write the turns as CSV or JSON Lines.")
    static final class Export implements Callable<Integer> {
        @CommandLine.ParentCommand
        TelemetryCommand parent;

        @Option(names = "--format", required = true, paramLabel = "csv|jsonl")
        String format;

        @Option(names = "--output", required = true, paramLabel = "FILE")
        Path output;

        @Override
        public Integer call() throws IOException {
            Path log = parent.log();
            String f = format.toLowerCase(Locale.ROOT);
            String namespace = parent.namespace();
            if (!f.equals("jsonl") && !f.equals("csv")) {
                throw new IllegalArgumentException("--format must be csv or jsonl: '" + format + "'");
            }
            // Every query of the log is in it: a new export is the owner's alone.
            OwnerOnly.ensureFile(output);
            if (f.equals("jsonl") && namespace == null) {
                try (java.io.OutputStream o = Files.newOutputStream(output)) {
                    Files.copy(log, o);
                }
            } else if (f.equals("jsonl")) {
                // Only this namespace's lines, as they were written.
                List<String> lines = new java.util.ArrayList<>();
                for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                    if (!line.isBlank() && namespace.equals(Output.JSON.readTree(line).path("namespace").asString())) {
                        lines.add(line);
                    }
                }
                Files.write(output, lines, StandardCharsets.UTF_8);
            } else {
                List<TurnTelemetry> turns = parent.turns(log);
                try (BufferedWriter w = Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
                    w.write("timestamp,session,turn,namespace,query,topic,topic_shifted,curated_tokens,budget,"
                            + "memories_scored,memories_included,memories_dropped,triggers,latency_ms,memory_ids\n");
                    for (TurnTelemetry t : turns) {
                        w.write(String.join(",", t.timestamp().toString(), csv(t.sessionId()),
                                Integer.toString(t.turn()), csv(t.namespace()), csv(t.query()), csv(t.topic()),
                                Boolean.toString(t.topicShifted()), Integer.toString(t.curatedTokens()),
                                Integer.toString(t.budget()), Integer.toString(t.memoriesScored()),
                                Integer.toString(t.memoriesIncluded()), Integer.toString(t.memoriesDropped()),
                                csv(String.join(";", t.triggersMatched())),
                                String.format(Locale.ROOT, "%.3f", t.latency().toNanos() / 1e6),
                                csv(String.join(";", t.includedMemoryIds()))));
                        w.write('\n');
                    }
                }
            }
            parent.spec.commandLine().getOut().println("wrote " + output);
            return Main.OK;
        }

        /** A CSV field; a leading = + - @ is quoted away so a spreadsheet does not run it as a formula. */
        static String csv(String value) {
            if (value == null) {
                return "";
            }
            String v = value;
            if (!v.isEmpty() && "=+-@".indexOf(v.charAt(0)) >= 0) {
                v = "'" + v;
            }
            return "\"" + v.replace("\"", "\"\"") + "\"";
        }
    }

    @Command(name = "tail", description = "Print turns as they are logged, until interrupted.")
    static final class Tail implements Callable<Integer> {
        @CommandLine.ParentCommand
        TelemetryCommand parent;

        @Override
        public Integer call() throws Exception {
            Path log = parent.log();
            PrintWriter out = parent.spec.commandLine().getOut();
            List<TurnTelemetry> turns = parent.turns(log);
            turns.subList(Math.max(0, turns.size() - 10), turns.size()).forEach(t -> out.println(line(t)));
            int printed = turns.size();
            long size = Files.size(log);
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(500);
                long now = Files.exists(log) ? Files.size(log) : 0;
                if (now == size) {
                    continue;
                }
                try {
                    turns = parent.turns(log);
                } catch (MemfasException e) {
                    continue; // a line is being written: read again on the next poll
                }
                size = now;
                if (turns.size() < printed) {
                    printed = 0; // the log was rotated: everything in it is new
                }
                turns.subList(printed, turns.size()).forEach(t -> out.println(line(t)));
                printed = turns.size();
            }
            return Main.OK;
        }
    }
}
