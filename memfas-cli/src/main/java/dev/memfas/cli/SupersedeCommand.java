package dev.memfas.cli;

import dev.memfas.Memory;
import dev.memfas.Scope;
import dev.memfas.spi.StoredMemory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code memfas supersede OLD_ID TEXT}: a new memory replaces an old one, which is kept; prints the new id. */
@Command(name = "supersede", description = {"Replace a memory by a new one; prints the new id.",
    "The old memory is kept, marked superseded and valid until the new one is: contexts and recall leave it out"
        + " unless asked (--include-superseded, --as-of)."})
final class SupersedeCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @Parameters(index = "0", paramLabel = "OLD_ID", description = "The memory that is no longer true.")
    String oldId;

    @Parameters(index = "1", paramLabel = "TEXT", description = "What is true now.")
    String text;

    @Option(names = "--id", paramLabel = "ID", description = "The new memory's id (default: generated).")
    String id;

    @Option(names = "--kind", paramLabel = "KIND", description = "Its kind (default: the old memory's).")
    String kind;

    @Option(names = "--scope", paramLabel = "SCOPE", description = "Its scope (default: the old memory's).")
    String scope;

    @Option(names = "--tags", split = ",", paramLabel = "TAG", description = "Comma-separated tags (default: the old"
            + " memory's).")
    List<String> tags;

    @Option(names = "--valid-from", paramLabel = "WHEN", description = "When it became true, YYYY-MM-DD or ISO-8601"
            + " (default: now); the old memory is valid until then.")
    String validFrom;

    @Override
    public Integer call() {
        try (Workspace w = main.open(Workspace.Access.READ, false)) {
            StoredMemory old = w.curator.get(main.namespace(), oldId).orElse(null);
            if (old == null) {
                main.err().println("memfas: no memory with id " + oldId);
                return Main.INPUT;
            }
            Memory.Builder b = Memory.builder(text).namespace(main.namespace()).source("cli")
                    .kind(kind != null ? kind : old.memory().kind())
                    .scope(scope != null ? Scope.parse(scope) : old.memory().scope())
                    .tags(tags != null ? tags : new ArrayList<>(old.memory().tags()));
            if (id != null) {
                b.id(id);
            }
            if (validFrom != null) {
                b.validFrom(ListCommand.instant("--valid-from", validFrom, false));
            }
            main.out().println(w.curator.memories().supersede(oldId, b.build()).id());
        }
        return Main.OK;
    }
}
