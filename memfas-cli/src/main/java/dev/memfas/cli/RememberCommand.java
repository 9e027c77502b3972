package dev.memfas.cli;

import dev.memfas.Layer;
import dev.memfas.Memory;
import dev.memfas.RememberRequest;
import dev.memfas.Remembered;
import dev.memfas.Scope;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code memfas remember TEXT}: one memory; prints its id. */
@Command(name = "remember", description = "Store one memory; prints its id.")
final class RememberCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @Parameters(paramLabel = "TEXT", description = "The memory.")
    String text;

    @Option(names = "--kind", paramLabel = "KIND", description = "note (default), fact, decision, lesson, ...")
    String kind;

    @Option(names = "--scope", paramLabel = "SCOPE", description = "universal, language:NAME, project:NAME or"
            + " project:NAME:task:TASK.")
    String scope;

    @Option(names = "--tags", split = ",", paramLabel = "TAG", description = "Comma-separated tags.")
    List<String> tags = new ArrayList<>();

    @Option(names = "--author", paramLabel = "NAME", description = "Who wrote or said it (default: unknown).")
    String author;

    @Option(names = "--pin", description = "Pin it: in every context while the budget has room, whatever it scores.")
    boolean pin;

    @Option(names = "--id", paramLabel = "ID", description = "The memory's id (default: generated); an existing id"
            + " is replaced.")
    String id;

    @Option(names = "--valid-from", paramLabel = "WHEN", description = "When what it says became true, YYYY-MM-DD or"
            + " ISO-8601 (default: always).")
    String validFrom;

    @Option(names = "--valid-until", paramLabel = "WHEN", description = "When what it says stopped being true"
            + " (default: still true).")
    String validUntil;

    @Option(names = "--layer", paramLabel = "LAYER", description = "project or global, whatever the routing rules"
            + " say (default: tags, scope and kind choose; see docs/layers.md).")
    String layer;

    @Option(names = "--project", paramLabel = "NAME", description = "The project a project-layer memory is about,"
            + " when its scope says none.")
    String project;

    @Override
    public Integer call() {
        Memory.Builder b = Memory.builder(text).namespace(main.namespace()).source("cli").tags(tags).pinned(pin);
        if (kind != null) {
            b.kind(kind);
        }
        if (author != null) {
            b.author(author);
        }
        if (scope != null) {
            b.scope(Scope.parse(scope));
        }
        if (id != null) {
            b.id(id);
        }
        if (validFrom != null) {
            b.validFrom(ListCommand.instant("--valid-from", validFrom, false));
        }
        if (validUntil != null) {
            b.validUntil(ListCommand.instant("--valid-until", validUntil, false));
        }
        RememberRequest request = RememberRequest.of(b.build());
        if (layer != null) {
            Layer forced = Layer.parse(layer);
            if (forced == Layer.WORKING) {
                throw new CommandLine.ParameterException(main.spec.commandLine(), "--layer working: working memory"
                        + " belongs to a session of a running curator (the MCP server or your application), and this"
                        + " command exits when done; use project or global");
            }
            request = request.layer(forced);
        }
        if (project != null) {
            request = request.project(project);
        }
        try (Workspace w = main.open(Workspace.Access.WRITE, false)) {
            Remembered remembered = w.curator.remember(request);
            Memory stored = remembered.memory();
            main.out().println(stored.id());
            if (layer != null || project != null) {
                main.err().println("memfas: in the " + remembered.layer().label() + " layer (" + remembered.reason()
                        + ")");
            }
            if (id == null && w.curator.get(main.namespace(), stored.id())
                    .map(s -> s.evidenceCount() > 1).orElse(false)) {
                main.err().println("memfas: already remembered as " + stored.id() + " (not stored again)");
            }
        }
        return Main.OK;
    }
}
