package dev.memfas.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code memfas setup CLIENT}: adds the memfas MCP server to a client's configuration file, keeping everything else in
 * it, or with {@code --print} shows the entry and writes nothing.
 */
@Command(name = "setup", description = "Add the memfas MCP server to a client's configuration: claude-code,"
        + " claude-desktop, cursor, vscode or codex.")
final class SetupCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @Parameters(paramLabel = "CLIENT", description = "claude-code (./.mcp.json), claude-desktop, cursor"
            + " (~/.cursor/mcp.json), vscode (./.vscode/mcp.json) or codex (~/.codex/config.toml).")
    String client;

    @Option(names = "--print", description = "Show the entry in the client's format and the file it belongs in;"
            + " write nothing.")
    boolean print;

    @Option(names = "--name", paramLabel = "NAME", description = "The server's name in the client (default memfas).")
    String name = "memfas";

    @Option(names = "--tools", paramLabel = "LIST", description = "The tools the server offers (memfas mcp --tools);"
            + " default: the server's, core.")
    String tools;

    @Option(names = "--command", paramLabel = "PATH", description = "The memfas command the client starts (default:"
            + " the installed one this command runs from).")
    Path command;

    @Override
    public Integer call() throws Exception {
        McpClientConfig.Client chosen = McpClientConfig.Client.parse(client);
        CliConfig settings = main.settings();
        List<String> args = new ArrayList<>(List.of("mcp", "--db", settings.dbUrl != null ? settings.dbUrl
                : settings.db.toAbsolutePath().toString()));
        String namespace = main.namespaceGiven();
        if (namespace != null) {
            args.addAll(List.of("--namespace", namespace));
        }
        if (tools != null) {
            args.addAll(List.of("--tools", tools));
        }
        McpClientConfig.Server server = new McpClientConfig.Server(name, launcher().toString(), args);
        Path file = chosen.file(Path.of(System.getProperty("user.home")), Path.of("").toAbsolutePath(),
                System.getProperty("os.name"), System.getenv());
        if (print) {
            main.err().println("memfas: the entry for " + chosen.title + ", in " + file + ":");
            main.out().print(McpClientConfig.alone(chosen, server));
            main.out().flush();
            return Main.OK;
        }
        McpClientConfig.Written w = McpClientConfig.write(chosen, file, server, Clock.systemUTC());
        main.out().println((w.replaced() ? "replaced the server '" : "added the server '") + name + "' in " + file
                + (w.backup() != null ? " (the file as it was: " + w.backup() + ")" : ""));
        main.out().println("it runs: " + server.command() + " " + String.join(" ", server.args()));
        main.out().println("restart " + chosen.title + " (or reload its MCP servers) to start it");
        return Main.OK;
    }

    /** The command the client is to start: one that starts at once and never builds anything. */
    private Path launcher() {
        if (command != null) {
            Path given = command.toAbsolutePath().normalize();
            if (!Files.isExecutable(given)) {
                throw new IllegalArgumentException("--command names no executable file: " + given);
            }
            return given;
        }
        // install.sh puts the jar in PREFIX/lib/memfas and the launcher in PREFIX/bin.
        String home = System.getProperty("memfas.home");
        if (home != null) {
            Path installed = Path.of(home).toAbsolutePath().normalize().resolve("../../bin/memfas").normalize();
            if (Files.isExecutable(installed)) {
                return installed;
            }
        }
        throw new IllegalArgumentException("this memfas is not an installed one, and an MCP client needs a command"
                + " that starts at once: run ./install.sh and then the installed 'memfas setup " + client + "', or name"
                + " the command with --command");
    }
}
