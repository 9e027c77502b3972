package dev.memfas.cli;

import dev.memfas.Memory;
import dev.memfas.Trigger;
import dev.memfas.spi.TriggerStore;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code memfas triggers add | list | remove}. */
@Command(name = "triggers", description = "Keyword triggers that pin memories or hints into the context.",
        subcommands = {TriggersCommand.Add.class, TriggersCommand.ListTriggers.class, TriggersCommand.Remove.class})
final class TriggersCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return Main.OK;
    }

    @Command(name = "add", description = "Add or replace a trigger.")
    static final class Add implements Callable<Integer> {
        @CommandLine.ParentCommand
        TriggersCommand parent;

        @Parameters(index = "0", paramLabel = "KEYWORD")
        String keyword;

        @Parameters(index = "1", paramLabel = "HINT", arity = "0..1", description = "Text shown when it fires.")
        String hint = "";

        @Option(names = "--memory", paramLabel = "ID", description = "A memory to include when it fires.")
        List<String> memories = new ArrayList<>();

        @Override
        public Integer call() {
            Trigger t = new Trigger(keyword, hint, memories, parent.main.namespace());
            try (Workspace w = parent.main.open(Workspace.Access.WRITE, false)) {
                w.curator.triggers().add(t);
            }
            parent.main.out().println("added trigger '" + t.keyword() + "'");
            return Main.OK;
        }
    }

    @Command(name = "list", description = "List the triggers.")
    static final class ListTriggers implements Callable<Integer> {
        @CommandLine.ParentCommand
        TriggersCommand parent;

        @Override
        public Integer call() {
            PrintWriter out = parent.main.out();
            try (var store = Workspace.openStore(parent.main.settings(), Workspace.Access.READ)) {
                List<Trigger> triggers = store instanceof TriggerStore ts ? ts.triggers(parent.main.namespace())
                        : List.of();
                for (Trigger t : triggers) {
                    out.println(t.keyword() + (t.hint().isEmpty() ? "" : "  — " + Main.oneLine(t.hint(), 100))
                            + (t.memoryIds().isEmpty() ? "" : "  → " + String.join(", ", t.memoryIds())));
                }
                if (triggers.isEmpty()) {
                    out.println("no triggers");
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "remove", description = "Remove a trigger.")
    static final class Remove implements Callable<Integer> {
        @CommandLine.ParentCommand
        TriggersCommand parent;

        @Parameters(paramLabel = "KEYWORD")
        String keyword;

        @Override
        public Integer call() {
            try (Workspace w = parent.main.open(Workspace.Access.READ, false)) {
                if (!w.curator.triggers().remove(parent.main.namespace(), keyword)) {
                    parent.main.err().println("memfas: no trigger '" + keyword + "'");
                    return Main.INPUT;
                }
            }
            parent.main.out().println("removed trigger '" + keyword + "'");
            return Main.OK;
        }
    }
}
