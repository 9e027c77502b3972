package dev.memfas.cli;

import dev.memfas.spi.MemoryStore;
import dev.memfas.Memory;
import dev.memfas.spi.StoredMemory;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code memfas show ID}: one memory, every field. */
@Command(name = "show", description = "Show one memory: every field and its access statistics.")
final class ShowCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @Parameters(paramLabel = "ID", description = "The memory's id.")
    String id;

    @Option(names = "--json", description = "Print it as one JSON object.")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter out = main.out();
        try (MemoryStore store = Workspace.openStore(main.settings(), Workspace.Access.READ)) {
            StoredMemory s = store.get(main.namespace(), id).orElse(null);
            if (s == null) {
                main.err().println("memfas: no memory with id " + id);
                return Main.INPUT;
            }
            Map<String, Object> fields = Output.stored(s);
            if (json) {
                Output.json(out, fields);
                return Main.OK;
            }
            fields.forEach((key, value) -> {
                if (!key.equals("text") && value != null && !(value instanceof Map<?, ?> m && m.isEmpty())
                        && !(value instanceof java.util.List<?> l && l.isEmpty())) {
                    out.printf("%-17s %s%n", key + ":", value);
                }
            });
            out.println();
            out.println(s.memory().text());
        }
        return Main.OK;
    }
}
