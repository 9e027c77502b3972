package dev.memfas.cli;

import dev.memfas.ContextItem;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.CuratorStats;
import dev.memfas.MemfasException;
import dev.memfas.Memory;
import dev.memfas.RecallHit;
import dev.memfas.ScoreBreakdown;
import dev.memfas.Scope;
import dev.memfas.Trigger;
import dev.memfas.mcp.MemfasMcpServer;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ScopeType;

/** The {@code memfas} command. Exit codes: 0 ok, 1 usage, 2 bad input, 3 store or model failure, 4 internal error. */
@Command(name = "memfas", mixinStandardHelpOptions = true, version = "memfas 0.1.0",
        description = "Per-turn context curation for LLM agents: index memory files, curate, report, serve MCP.",
        subcommands = {Main.Index.class, Main.Context.class, Main.Remember.class, Main.Forget.class, Main.Recall.class,
            Main.Triggers.class, Main.Stats.class, TelemetryCommand.class, Main.Mcp.class, DemoCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:usage error (unknown command or option, bad flag value)",
            "2:bad input (a file, the config, an argument that names nothing)", "3:store or model failure",
            "4:internal error"})
public final class Main implements Callable<Integer> {
    static final int OK = 0;
    static final int USAGE = 1;
    static final int INPUT = 2;
    static final int FAILURE = 3;
    static final int INTERNAL = 4;

    @Option(names = "--config", scope = ScopeType.INHERIT, paramLabel = "FILE",
            description = "Settings file (default: ./memfas.yaml if present).")
    Path config;

    @Option(names = "--db", scope = ScopeType.INHERIT, paramLabel = "FILE",
            description = "SQLite database (default: ./.memfas/memfas.db).")
    Path db;

    @Option(names = "--model", scope = ScopeType.INHERIT, paramLabel = "MODEL",
            description = "bge-small-en-v1.5-q (the default, bundled), none (lexical only), or a model directory"
                    + " with model.onnx and tokenizer.json.")
    String model;

    @Option(names = "--verbose", scope = ScopeType.INHERIT, description = "Log progress; show stack traces on errors.")
    boolean verbose;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command with the given output streams and returns its exit code. */
    static int run(String[] args, PrintWriter out, PrintWriter err) {
        boolean verbose = List.of(args).contains("--verbose");
        setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", verbose ? "info" : "warn");
        // DJL's tokenizer warns about CUDA on machines with a CUDA runtime but no GPU: nothing a user can act on.
        setIfAbsent("org.slf4j.simpleLogger.log.ai.djl", verbose ? "info" : "error");
        CommandLine cli = new CommandLine(new Main());
        cli.setOut(out);
        cli.setErr(err);
        cli.setParameterExceptionHandler((e, a) -> {
            err.println("memfas: " + e.getMessage());
            err.println("Try '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
            return USAGE;
        });
        cli.setExecutionExceptionHandler((e, c, parsed) -> {
            int code;
            String message;
            if (e instanceof CliConfig.ConfigException || e instanceof IllegalArgumentException) {
                code = INPUT;
                message = e.getMessage();
            } else if (e instanceof MemfasException || e instanceof IllegalStateException) {
                code = FAILURE;
                message = e.getMessage();
            } else {
                code = INTERNAL;
                message = "internal error: " + e;
            }
            err.println("memfas: " + message);
            if (verbose) {
                e.printStackTrace(err);
            }
            return code;
        });
        return cli.execute(args);
    }

    private static void setIfAbsent(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return OK;
    }

    /** The settings with flags applied over the config file. */
    CliConfig settings() {
        CliConfig c = CliConfig.load(config);
        if (db != null) {
            c.db = db.toAbsolutePath();
        }
        if (model != null) {
            c.model = model;
        }
        return c;
    }

    Workspace open(boolean telemetry) {
        return Workspace.open(settings(), telemetry);
    }

    static String oneLine(String text, int max) {
        String t = text.replaceAll("\\s+", " ").strip();
        return t.length() <= max ? t : t.substring(0, max - 1) + "…";
    }

    // ---------------------------------------------------------------- index

    @Command(name = "index", description = "Index memory files: MEMORY.md, memory/YYYY-MM-DD.md, notes, JSON.")
    static final class Index implements Callable<Integer> {
        @CommandLine.ParentCommand
        Main main;

        @Parameters(paramLabel = "PATH", arity = "0..*",
                description = "Files or directories (default: the config's sources).")
        List<Path> paths = new ArrayList<>();

        @Option(names = "--chunk-tokens", paramLabel = "N", description = "Target chunk size in tokens (default 400).")
        Integer chunkTokens;

        @Option(names = "--overlap-tokens", paramLabel = "N", description = "Overlap between chunks (default 50).")
        Integer overlapTokens;

        @Option(names = "--max-file-size", paramLabel = "BYTES", description = "Skip larger files (default 10 MiB).")
        Long maxFileSize;

        @Override
        public Integer call() {
            CliConfig c = main.settings();
            List<Path> targets = new ArrayList<>(paths);
            if (targets.isEmpty()) {
                targets.addAll(Sources.expand(c.baseDir, c.sources));
                if (targets.isEmpty()) {
                    throw new IllegalArgumentException("nothing to index: give paths, or list sources in "
                            + CliConfig.FILE_NAME);
                }
            }
            MemoryFiles files = new MemoryFiles(chunkTokens != null ? chunkTokens : c.chunkTargetTokens,
                    overlapTokens != null ? overlapTokens : c.chunkOverlapTokens);
            PrintWriter out = main.spec.commandLine().getOut();
            try (Workspace w = Workspace.open(c, false)) {
                Indexer indexer = new Indexer(w.curator, w.store, files,
                        maxFileSize != null ? maxFileSize : c.maxFileBytes, Path.of(""), Instant.now());
                Indexer.Report r = indexer.index(targets,
                        System.console() != null ? Indexer.Progress.bar(System.err) : Indexer.Progress.none());
                out.printf(Locale.ROOT, "indexed %d files (%d unchanged): %d chunks added, %d kept, %d removed%n",
                        r.filesIndexed(), r.filesUnchanged(), r.added(), r.kept(), r.removed());
                PrintWriter err = main.spec.commandLine().getErr();
                r.failures().forEach((file, why) -> err.println("memfas: " + file + ": " + why));
                if (r.failed()) {
                    err.println("memfas: " + r.failures().size() + " of the paths failed; the rest was indexed");
                    return INPUT;
                }
                return OK;
            }
        }
    }

    // ---------------------------------------------------------------- context

    @Command(name = "context", description = "Print the curated context for a query.")
    static final class Context implements Callable<Integer> {
        @CommandLine.ParentCommand
        Main main;

        @Parameters(paramLabel = "QUERY", description = "The user's message.")
        String query;

        @Option(names = "--session", paramLabel = "ID", description = "Session id (topic and hot memories).")
        String session;

        @Option(names = "--budget", paramLabel = "TOKENS", description = "Token budget (default 2000 or config).")
        Integer budget;

        @Option(names = "--explain", description = "Also print the included memories' scores and what was dropped.")
        boolean explain;

        @Override
        public Integer call() {
            if (budget != null && budget < 1) {
                throw new IllegalArgumentException("--budget must be positive: " + budget);
            }
            PrintWriter out = main.spec.commandLine().getOut();
            try (Workspace w = main.open(true)) {
                ContextRequest.Builder request = ContextRequest.builder(query);
                if (session != null) {
                    request.sessionId(session);
                }
                if (budget != null) {
                    request.tokenBudget(budget);
                }
                ContextResponse r = w.curator.getContext(request.build());
                out.println(r.context());
                if (explain) {
                    explain(out, w, r);
                }
            }
            return OK;
        }

        private void explain(PrintWriter out, Workspace w, ContextResponse r) {
            out.println();
            out.printf(Locale.ROOT, "%d of %d tokens, %d memories scored, %d dropped, topic '%s'%s, %.1f ms%n",
                    r.tokensUsed(), r.budget(), r.memoriesScored(), r.memoriesDropped(), r.topic(),
                    r.topicShifted() ? " (shifted)" : "", r.latency().toNanos() / 1e6);
            if (!r.triggersMatched().isEmpty()) {
                out.println("triggers: " + String.join(", ", r.triggersMatched()));
            }
            out.println();
            out.println("included:");
            out.println(header());
            Set<String> included = new HashSet<>();
            for (ContextItem item : r.items()) {
                included.add(item.memoryId());
                out.println(row(item.memoryId(), item.score(), item.factors(), item.tokens(),
                        item.section().name().toLowerCase(Locale.ROOT)));
            }
            List<RecallHit> ranked = w.curator.recall(query, 50);
            List<RecallHit> dropped = ranked.stream().filter(h -> !included.contains(h.memory().id())).limit(10)
                    .toList();
            if (!dropped.isEmpty()) {
                out.println();
                out.println("not included (best ranked first; below the minimum score, duplicates, or over budget):");
                out.println(header());
                for (RecallHit h : dropped) {
                    out.println(row(h.memory().id(), h.score(), h.factors(), -1, oneLine(h.memory().text(), 40)));
                }
            }
        }

        private static String header() {
            return String.format(Locale.ROOT, "  %-22s %6s %5s %5s %5s %5s %5s %5s %5s %5s %5s %6s  %s", "id",
                    "score", "sem", "lex", "rec", "freq", "topic", "scope", "prio", "hot", "nbr", "tokens", "");
        }

        private static String row(String id, double score, ScoreBreakdown f, int tokens, String note) {
            return String.format(Locale.ROOT,
                    "  %-22s %6.3f %5.2f %5.2f %5.2f %5.2f %5.2f %5.2f %5.2f %5.2f %5.2f %6s  %s",
                    oneLine(id, 22), score, f.semantic(), f.lexical(), f.recency(), f.frequency(), f.topic(),
                    f.scope(), f.priority(), f.hot(), f.neighbor(), tokens < 0 ? "" : Integer.toString(tokens), note);
        }
    }

    // ---------------------------------------------------------------- remember, forget, recall

    @Command(name = "remember", description = "Store one memory.")
    static final class Remember implements Callable<Integer> {
        @CommandLine.ParentCommand
        Main main;

        @Parameters(paramLabel = "TEXT", description = "The memory.")
        String text;

        @Option(names = "--kind", paramLabel = "KIND", description = "note (default), fact, decision, lesson, ...")
        String kind;

        @Option(names = "--scope", paramLabel = "SCOPE", description = "universal, language:NAME or project:NAME.")
        String scope;

        @Option(names = "--tags", split = ",", paramLabel = "TAG", description = "Comma-separated tags.")
        List<String> tags = new ArrayList<>();

        @Option(names = "--pin", description = "Pin it: in every context while the budget has room, whatever it scores.")
        boolean pin;

        @Option(names = "--id", paramLabel = "ID", description = "The memory's id (default: generated).")
        String id;

        @Override
        public Integer call() {
            Memory.Builder b = Memory.builder(text).source("cli").tags(tags).pinned(pin);
            if (kind != null) {
                b.kind(kind);
            }
            if (scope != null) {
                b.scope(Scope.parse(scope));
            }
            if (id != null) {
                b.id(id);
            }
            Memory memory = b.build();
            try (Workspace w = main.open(false)) {
                Memory stored = w.curator.remember(memory);
                main.spec.commandLine().getOut().println(stored.id());
            }
            return OK;
        }
    }

    @Command(name = "forget", description = "Delete memories by id.")
    static final class Forget implements Callable<Integer> {
        @CommandLine.ParentCommand
        Main main;

        @Parameters(paramLabel = "ID", arity = "1..*", description = "Memory ids.")
        List<String> ids;

        @Override
        public Integer call() {
            int missing = 0;
            try (Workspace w = main.open(false)) {
                for (String id : ids) {
                    if (w.curator.forget(id)) {
                        main.spec.commandLine().getOut().println("forgot " + id);
                    } else {
                        main.spec.commandLine().getErr().println("memfas: no memory with id " + id);
                        missing++;
                    }
                }
            }
            return missing == 0 ? OK : INPUT;
        }
    }

    @Command(name = "recall", description = "Plain ranked search over the memories.")
    static final class Recall implements Callable<Integer> {
        @CommandLine.ParentCommand
        Main main;

        @Parameters(paramLabel = "QUERY")
        String query;

        @Option(names = "--limit", paramLabel = "N", description = "Most results (default 10).")
        int limit = 10;

        @Override
        public Integer call() {
            PrintWriter out = main.spec.commandLine().getOut();
            try (Workspace w = main.open(false)) {
                List<RecallHit> hits = w.curator.recall(query, limit);
                for (int i = 0; i < hits.size(); i++) {
                    RecallHit h = hits.get(i);
                    out.printf(Locale.ROOT, "%2d. %.3f  %s  %s%n      %s%n", i + 1, h.score(), h.memory().id(),
                            h.memory().source(), oneLine(h.memory().text(), 160));
                }
                if (hits.isEmpty()) {
                    out.println("no memories match");
                }
            }
            return OK;
        }
    }

    // ---------------------------------------------------------------- triggers

    @Command(name = "triggers", description = "Keyword triggers that pin memories or hints into the context.",
            subcommands = {Triggers.Add.class, Triggers.ListTriggers.class, Triggers.Remove.class})
    static final class Triggers implements Callable<Integer> {
        @CommandLine.ParentCommand
        Main main;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            spec.commandLine().usage(spec.commandLine().getOut());
            return OK;
        }

        @Command(name = "add", description = "Add or replace a trigger.")
        static final class Add implements Callable<Integer> {
            @CommandLine.ParentCommand
            Triggers parent;

            @Parameters(index = "0", paramLabel = "KEYWORD")
            String keyword;

            @Parameters(index = "1", paramLabel = "HINT", arity = "0..1", description = "Text shown when it fires.")
            String hint = "";

            @Option(names = "--memory", paramLabel = "ID", description = "A memory to include when it fires.")
            List<String> memories = new ArrayList<>();

            @Override
            public Integer call() {
                Trigger t = Trigger.of(keyword, hint, memories.toArray(String[]::new));
                try (Workspace w = parent.main.open(false)) {
                    w.curator.addTrigger(t);
                }
                parent.spec.commandLine().getOut().println("added trigger '" + t.keyword() + "'");
                return OK;
            }
        }

        @Command(name = "list", description = "List the triggers.")
        static final class ListTriggers implements Callable<Integer> {
            @CommandLine.ParentCommand
            Triggers parent;

            @Override
            public Integer call() {
                PrintWriter out = parent.spec.commandLine().getOut();
                try (Workspace w = parent.main.open(false)) {
                    List<Trigger> triggers = w.store.triggers(Memory.DEFAULT_NAMESPACE);
                    for (Trigger t : triggers) {
                        out.println(t.keyword() + (t.hint().isEmpty() ? "" : "  — " + oneLine(t.hint(), 100))
                                + (t.memoryIds().isEmpty() ? "" : "  → " + String.join(", ", t.memoryIds())));
                    }
                    if (triggers.isEmpty()) {
                        out.println("no triggers");
                    }
                }
                return OK;
            }
        }

        @Command(name = "remove", description = "Remove a trigger.")
        static final class Remove implements Callable<Integer> {
            @CommandLine.ParentCommand
            Triggers parent;

            @Parameters(paramLabel = "KEYWORD")
            String keyword;

            @Override
            public Integer call() {
                try (Workspace w = parent.main.open(false)) {
                    if (!w.curator.removeTrigger(Memory.DEFAULT_NAMESPACE, keyword)) {
                        parent.spec.commandLine().getErr().println("memfas: no trigger '" + keyword + "'");
                        return INPUT;
                    }
                }
                parent.spec.commandLine().getOut().println("removed trigger '" + keyword + "'");
                return OK;
            }
        }
    }

    // ---------------------------------------------------------------- stats, mcp

    @Command(name = "stats", description = "Counts of memories, vectors and triggers; the model and database.")
    static final class Stats implements Callable<Integer> {
        @CommandLine.ParentCommand
        Main main;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = main.spec.commandLine().getOut();
            try (Workspace w = main.open(false)) {
                CuratorStats s = w.curator.stats();
                out.println("database:  " + w.config.db + " (" + Files.size(w.config.db) + " bytes)");
                out.println("memories:  " + s.memories());
                out.println("vectors:   " + s.vectors());
                out.println("triggers:  " + s.triggers());
                out.println("model:     " + (s.embedderModel().isEmpty() ? "none (lexical only)" : s.embedderModel()));
                out.println("tokenizer: " + s.tokenizer());
            }
            return OK;
        }
    }

    @Command(name = "mcp", description = "Serve the MCP server on standard input and output.")
    static final class Mcp implements Callable<Integer> {
        @CommandLine.ParentCommand
        Main main;

        @Option(names = "--budget", paramLabel = "TOKENS", description = "Default budget of get_context.")
        Integer budget;

        @Override
        public Integer call() throws Exception {
            try (Workspace w = main.open(true)) {
                MemfasMcpServer.Builder b = MemfasMcpServer.builder(w.curator);
                if (budget != null) {
                    b.defaultBudget(budget);
                }
                try (MemfasMcpServer server = b.build()) {
                    server.awaitClientExit();
                }
            }
            return OK;
        }
    }
}
