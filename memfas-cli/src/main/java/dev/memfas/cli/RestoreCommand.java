package dev.memfas.cli;

import dev.memfas.Memory;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code memfas restore ID...}: archived memories back into use. */
@Command(name = "restore", description = "Bring archived memories back into use.")
final class RestoreCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @Parameters(paramLabel = "ID", arity = "1..*", description = "Memory ids.")
    List<String> ids;

    @Override
    public Integer call() {
        try (Workspace w = main.open(Workspace.Access.READ, false)) {
            for (String id : ids) {
                w.curator.memories().restore(main.namespace(), id);
                main.out().println("restored " + id);
            }
        }
        return Main.OK;
    }
}
