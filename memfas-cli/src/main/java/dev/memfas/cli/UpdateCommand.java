package dev.memfas.cli;

import dev.memfas.Memory;
import dev.memfas.Scope;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code memfas update ID [--text TEXT] ...}: changes one memory, keeping the state before as a version. */
@Command(name = "update", description = {"Change one memory; what is not named is kept.",
    "The state before is kept as a version: 'memfas history ID' lists them."})
final class UpdateCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @Parameters(paramLabel = "ID", description = "The memory's id.")
    String id;

    @Option(names = "--text", paramLabel = "TEXT", description = "The new text.")
    String text;

    @Option(names = "--kind", paramLabel = "KIND", description = "The new kind.")
    String kind;

    @Option(names = "--scope", paramLabel = "SCOPE", description = "The new scope: universal, language:NAME or"
            + " project:NAME.")
    String scope;

    @Option(names = "--tags", split = ",", paramLabel = "TAG", description = "The new tags, comma-separated.")
    List<String> tags;

    @Option(names = "--pin", negatable = true, description = "Pin it, or with --no-pin unpin it.")
    Boolean pin;

    @Option(names = "--valid-until", paramLabel = "WHEN", description = "When it stopped being true, YYYY-MM-DD or"
            + " ISO-8601.")
    String validUntil;

    @Override
    public Integer call() {
        if (text == null && kind == null && scope == null && tags == null && pin == null && validUntil == null) {
            throw new IllegalArgumentException("nothing to change: give --text, --kind, --scope, --tags, --pin or"
                    + " --valid-until");
        }
        Scope parsedScope = scope == null ? null : Scope.parse(scope);
        java.time.Instant until = validUntil == null ? null : ListCommand.instant("--valid-until", validUntil, false);
        try (Workspace w = main.open(Workspace.Access.READ, false)) {
            if (w.curator.get(main.namespace(), id).isEmpty()) {
                main.err().println("memfas: no memory with id " + id);
                return Main.INPUT;
            }
            Memory updated = w.curator.memories().update(main.namespace(), id, b -> {
                if (text != null) {
                    b.text(text);
                }
                if (kind != null) {
                    b.kind(kind);
                }
                if (parsedScope != null) {
                    b.scope(parsedScope);
                }
                if (tags != null) {
                    b.tags(tags);
                }
                if (pin != null) {
                    b.pinned(pin);
                }
                if (until != null) {
                    b.validUntil(until);
                }
                return b;
            });
            main.out().println("updated " + updated.id());
        }
        return Main.OK;
    }
}
