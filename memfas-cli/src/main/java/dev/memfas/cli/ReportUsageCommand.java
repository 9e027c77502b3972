package dev.memfas.cli;

import dev.memfas.upkeep.UsageReport;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code memfas report-usage ID...}: memories that helped rank higher later. */
@Command(name = "report-usage", description = "Say which memories helped (they rank higher later), or with"
        + " --unhelpful which did not.")
final class ReportUsageCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @Parameters(paramLabel = "ID", arity = "1..*", description = "Memory ids.")
    List<String> ids;

    @Option(names = "--session", paramLabel = "ID", description = "The session the memories were curated for"
            + " (default: cli).")
    String session = "cli";

    @Option(names = "--unhelpful", description = "They did not help.")
    boolean unhelpful;

    @Override
    public Integer call() {
        try (Workspace w = main.open(Workspace.Access.READ, true)) {
            UsageReport r = w.curator.upkeep().reportUsage(main.namespace(), session, ids, !unhelpful);
            main.out().println("recorded " + r.recorded().size() + " as " + (unhelpful ? "not helpful" : "helpful")
                    + (r.recorded().isEmpty() ? "" : ": " + String.join(", ", r.recorded())));
            if (!r.unknown().isEmpty()) {
                main.err().println("memfas: no memory with id " + String.join(", ", r.unknown()));
                return Main.INPUT;
            }
        }
        return Main.OK;
    }
}
