package dev.memfas.cli;

import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.TriggerStore;
import dev.memfas.spi.VectorSpace;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code memfas stats}: counts read from the store; never loads a model and never creates a store. */
@Command(name = "stats", description = "Counts of memories, vectors and triggers; the vectors' model; the database.")
final class StatsCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @Option(names = "--json", description = "Print the numbers as one JSON object.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        CliConfig config = main.settings();
        PrintWriter out = main.out();
        try (MemoryStore store = Workspace.openStore(config, Workspace.Access.READ)) {
            long memories = 0;
            long vectors = 0;
            long triggers = 0;
            // Named a namespace, stats speak of that tenant only; else of the whole store, one line per namespace.
            String given = main.namespaceGiven();
            java.util.List<String> namespaces = given != null ? java.util.List.of(given)
                    : store.namespaces().stream().sorted().toList();
            Map<String, Object> perNamespace = new LinkedHashMap<>();
            for (String ns : namespaces) {
                long m = store.count(ns);
                long v = Stores.vectorCount(store, ns);
                long t = store instanceof TriggerStore ts ? ts.triggers(ns).size() : 0;
                memories += m;
                vectors += v;
                triggers += t;
                perNamespace.put(ns, Map.of("memories", m, "vectors", v, "triggers", t));
            }
            String vectorModel = store.vectorSpace().map(VectorSpace::toString).orElse("none");
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("database", config.where());
            if (config.db != null) {
                s.put("database_bytes", Files.size(config.db));
            }
            s.put("schema_version", Stores.schemaVersion(store));
            s.put("namespaces", namespaces.size());
            s.put("per_namespace", perNamespace);
            s.put("memories", memories);
            s.put("vectors", vectors);
            s.put("vector_model", vectorModel);
            s.put("triggers", triggers);
            s.put("model", config.model);
            if (json) {
                Output.json(out, s);
                return Main.OK;
            }
            out.println("database:  " + config.where() + " (" + (config.db != null ? s.get("database_bytes")
                    + " bytes, " : "PostgreSQL, ") + "schema version " + s.get("schema_version") + ")");
            out.println("memories:  " + memories + (namespaces.size() > 1 ? " in " + namespaces.size() + " namespaces"
                    : given != null ? " in namespace " + given : ""));
            out.println("vectors:   " + vectors + (vectors == 0 ? "" : " (" + vectorModel + ")"));
            out.println("triggers:  " + triggers);
            out.println("model:     " + (config.model.equalsIgnoreCase("none") ? "none (lexical only)" : config.model));
            if (namespaces.size() > 1) {
                perNamespace.forEach((ns, counts) -> {
                    Map<?, ?> c = (Map<?, ?>) counts;
                    out.println("  " + ns + ": " + c.get("memories") + " memories, " + c.get("vectors") + " vectors, "
                            + c.get("triggers") + " triggers");
                });
            }
            if (memories == 0) {
                Output.emptyStore(out, config.where());
            }
        }
        return Main.OK;
    }
}
