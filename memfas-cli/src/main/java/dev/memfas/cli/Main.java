package dev.memfas.cli;

import dev.memfas.MemfasException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import dev.memfas.ContextRequest;

/** The {@code memfas} command. Exit codes: 0 ok, 1 usage, 2 bad input, 3 store or model failure, 4 internal error. */
@Command(name = "memfas", mixinStandardHelpOptions = true, scope = ScopeType.INHERIT, version = "memfas " + Main.VERSION,
        description = "Per-turn context curation for LLM agents: index memory files, curate, report, serve MCP.",
        subcommands = {CommandLine.HelpCommand.class, IndexCommand.class, ContextCommand.class, RememberCommand.class,
            ForgetCommand.class, UpdateCommand.class, SupersedeCommand.class, HistoryCommand.class,
            MaintainCommand.class, RestoreCommand.class, SummarizeCommand.class, PromoteCommand.class,
            SuggestCommand.class,
            OrientCommand.class,
            RecallCommand.class, ListCommand.class, PatternsCommand.class, ShowCommand.class, ExportCommand.class,
            ImportCommand.class,
            BackupCommand.class, ReembedCommand.class, ReportUsageCommand.class, TriggersCommand.class, StateCommand.class,
            StatsCommand.class, TelemetryCommand.class, ReportCommand.class, McpCommand.class,
            UiCommand.class, SetupCommand.class, DemoCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:usage error (unknown command or option, bad flag value)",
            "2:bad input (a file, the config, an argument that names nothing)", "3:store or model failure",
            "4:internal error"})
public final class Main implements Callable<Integer> {
    /** The version of memfas, as the command and its MCP server announce it. */
    static final String VERSION = "0.1.0";
    static final int OK = 0;
    static final int USAGE = 1;
    static final int INPUT = 2;
    static final int FAILURE = 3;
    static final int INTERNAL = 4;

    @Option(names = "--config", scope = ScopeType.INHERIT, paramLabel = "FILE",
            description = "Settings file (default: ./memfas.yaml if present).")
    Path config;

    @Option(names = "--db", scope = ScopeType.INHERIT, paramLabel = "FILE|URL",
            description = "SQLite database file (default: ./.memfas/memfas.db), or a PostgreSQL database:"
                    + " postgresql://user@host:port/db or jdbc:postgresql://host/db?user=...")
    String db;

    @Option(names = "--model", scope = ScopeType.INHERIT, paramLabel = "MODEL",
            description = "bge-small-en-v1.5-q (the default, bundled), none (lexical only), or a model directory"
                    + " with model.onnx and tokenizer.json.")
    String model;

    @Option(names = "--namespace", scope = ScopeType.INHERIT, paramLabel = "NAME",
            description = "The namespace (tenant) to work in (default: the config's namespace, else default)."
                    + " Nothing a command does reaches another namespace.")
    String namespace;

    @Option(names = "--verbose", scope = ScopeType.INHERIT, description = "Log progress; show stack traces on errors.")
    boolean verbose;

    @Option(names = "--no-telemetry", scope = ScopeType.INHERIT,
            description = "Write no telemetry (default: telemetry.jsonl beside the database).")
    boolean noTelemetry;

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
            err.println("memfas: " + unknownCommand(e).orElse(e.getMessage()));
            err.println("Try '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
            return USAGE;
        });
        cli.setExecutionExceptionHandler((e, c, parsed) -> {
            int code;
            String message;
            if (e instanceof IllegalArgumentException) {
                code = INPUT;
                message = e.getMessage();
            } else if (e instanceof java.nio.charset.CharacterCodingException) {
                code = INPUT;
                message = "a file is not UTF-8 text";
            } else if (e instanceof java.io.IOException) {
                code = INPUT;
                message = e instanceof java.nio.file.NoSuchFileException ? "no such file: " + e.getMessage()
                        : e.toString();
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

    /**
     * "unknown command 'x'" with the commands there are, when the first word a command with subcommands did not
     * match is not an option: picocli says "Unmatched argument at index 0", which tells a person nothing.
     */
    private static java.util.Optional<String> unknownCommand(CommandLine.ParameterException e) {
        if (!(e instanceof CommandLine.UnmatchedArgumentException unmatched) || unmatched.getUnmatched().isEmpty()) {
            return java.util.Optional.empty();
        }
        CommandLine at = e.getCommandLine();
        String word = unmatched.getUnmatched().get(0);
        if (at.getSubcommands().isEmpty() || word.startsWith("-")) {
            return java.util.Optional.empty();
        }
        List<String> commands = at.getSubcommands().keySet().stream().filter(name -> !name.equals("help")).toList();
        String qualified = at.getCommandSpec().qualifiedName();
        return java.util.Optional.of("unknown command '" + word + "'" + (qualified.equals("memfas") ? ""
                : " of '" + qualified + "'") + "; the commands are " + String.join(", ", commands) + " (and help)");
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
            c.useDb(db, Path.of(""));
        }
        if (noTelemetry) {
            c.telemetry = null;
        }
        if (model != null) {
            c.model = model;
        }
        if (namespace != null) {
            c.namespace = namespace;
        }
        // Checked as a request checks it, so a bad name fails before anything is opened.
        c.namespace = ContextRequest.builder("check").namespace(c.namespace).build().namespace();
        return c;
    }

    /** The namespace the command works in: {@code --namespace}, else the config's, else {@code default}. */
    String namespace() {
        return settings().namespace;
    }

    /**
     * The namespace a command that can see the whole store (stats, telemetry, import) is limited to: the one named by
     * {@code --namespace} or the config; null when none was named.
     */
    String namespaceGiven() {
        CliConfig c = settings();
        return namespace != null || c.namespaceConfigured ? c.namespace : null;
    }

    /** The workspace of a command: the store (created only with {@link Workspace.Access#WRITE}) and a curator. */
    Workspace open(Workspace.Access access, boolean telemetry) {
        PrintWriter err = spec.commandLine().getErr();
        return Workspace.open(settings(), access, telemetry, note -> err.println("memfas: " + note));
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    static String oneLine(String text, int max) {
        String t = text.replaceAll("\\s+", " ").strip();
        return t.length() <= max ? t : t.substring(0, max - 1) + "…";
    }
}
