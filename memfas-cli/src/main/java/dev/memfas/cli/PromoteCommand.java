package dev.memfas.cli;

import dev.memfas.Layer;
import dev.memfas.Memory;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code memfas promote ID... --layer global}: project memories made global. */
@Command(name = "promote", description = "Move memories up a layer: project memories become global.")
final class PromoteCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @Parameters(paramLabel = "ID", arity = "1..*", description = "Memory ids.")
    List<String> ids;

    @Option(names = "--layer", required = true, paramLabel = "LAYER", description = "The layer to move them to:"
            + " global (a stored memory's scope becomes universal) or project.")
    String layer;

    @Override
    public Integer call() {
        Layer target = Layer.parse(layer);
        try (Workspace w = main.open(Workspace.Access.READ, false)) {
            for (String id : ids) {
                Memory promoted = w.curator.memories().promote(main.namespace(), id, target);
                main.out().println(id + ": " + Layer.of(promoted).label() + " (scope " + promoted.scope() + ")");
            }
        }
        return Main.OK;
    }
}
