package dev.memfas.cli;

import dev.memfas.Memories;
import dev.memfas.Memory;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code memfas history ID}: every state one memory has had, oldest first. */
@Command(name = "history", description = "Every state one memory has had, oldest first: who wrote it, when, and"
        + " what changed.")
final class HistoryCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @Parameters(paramLabel = "ID", description = "The memory's id.")
    String id;

    @Option(names = "--json", description = "One JSON object per version: its number, what changed and the memory.")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter out = main.out();
        try (Workspace w = main.open(Workspace.Access.READ, false)) {
            List<Memories.Version> versions = w.curator.memories().history(main.namespace(), id);
            if (versions.isEmpty()) {
                main.err().println("memfas: no memory with id " + id);
                return Main.INPUT;
            }
            for (Memories.Version v : versions) {
                Memory m = v.memory();
                if (json) {
                    Map<String, Object> o = new java.util.LinkedHashMap<>();
                    o.put("version", v.version());
                    o.put("changed", v.changed());
                    o.put("memory", Output.memory(m));
                    Output.json(out, o);
                } else {
                    out.printf("v%d  %s  by %s  %s%n      %s%n", v.version(), m.updatedAt(),
                            m.author() == null ? "unknown" : m.author(),
                            v.version() == 1 ? "created" : "changed " + String.join(", ", v.changed()),
                            Main.oneLine(m.text(), 160));
                }
            }
        }
        return Main.OK;
    }
}
