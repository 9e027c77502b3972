package dev.memfas.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code memfas forget ID...}. */
@Command(name = "forget", description = "Delete memories by id.")
final class ForgetCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @Parameters(paramLabel = "ID", arity = "1..*", description = "Memory ids.")
    List<String> ids;

    @Override
    public Integer call() {
        int missing = 0;
        try (Workspace w = main.open(Workspace.Access.READ, false)) {
            for (String id : ids) {
                if (w.curator.forget(main.namespace(), id)) {
                    main.out().println("forgot " + id);
                } else {
                    main.err().println("memfas: no memory with id " + id);
                    missing++;
                }
            }
        }
        return missing == 0 ? Main.OK : Main.INPUT;
    }
}
