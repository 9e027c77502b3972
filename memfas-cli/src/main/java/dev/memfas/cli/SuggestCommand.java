package dev.memfas.cli;

import dev.memfas.Memory;
import dev.memfas.Triggers;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code memfas suggest}: trigger suggestions learned from helpful feedback; nothing is added. */
@Command(name = "suggest", description = "Trigger suggestions: words that recur in the queries of turns reported"
        + " helpful, with their memories. Nothing is added; add one with 'memfas triggers add'.")
final class SuggestCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @Option(names = "--json", description = "One JSON object per suggestion: keyword, queries, memory_ids.")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter out = main.out();
        try (Workspace w = main.open(Workspace.Access.READ, false)) {
            List<Triggers.Suggestion> suggestions = w.curator.triggers().suggest(main.namespace());
            if (suggestions.isEmpty() && !json) {
                out.println("no suggestions yet: a word needs to recur in the queries of three turns reported helpful");
            }
            for (Triggers.Suggestion s : suggestions) {
                if (json) {
                    Map<String, Object> o = new java.util.LinkedHashMap<>();
                    o.put("keyword", s.keyword());
                    o.put("queries", s.queries());
                    o.put("memory_ids", s.memoryIds());
                    Output.json(out, o);
                } else {
                    StringBuilder add = new StringBuilder("memfas triggers add ").append(s.keyword());
                    s.memoryIds().forEach(id -> add.append(" --memory ").append(id));
                    out.printf("%-24s %3d helpful queries   %s%n", s.keyword(), s.queries(), add);
                }
            }
        }
        return Main.OK;
    }
}
