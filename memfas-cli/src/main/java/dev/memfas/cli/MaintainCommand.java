package dev.memfas.cli;

import dev.memfas.upkeep.MaintenanceReport;
import dev.memfas.upkeep.MaintenanceRequest;
import dev.memfas.Memory;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code memfas maintain}: archive what aged out unused and what expired; a dry run by flag. */
@Command(name = "maintain", description = {"Archive the memories that aged out unused, and those that expired.",
    "Archived memories are kept but used no more ('memfas list --archived', 'memfas restore ID'); pinned ones are"
        + " exempt."})
final class MaintainCommand implements Callable<Integer> {
    /** The most actions printed one by one; the counts cover them all. */
    private static final int MOST_SHOWN = 50;

    @CommandLine.ParentCommand
    Main main;

    @Option(names = "--dry-run", description = "Say what would be done; change nothing.")
    boolean dryRun;

    @Option(names = "--purge", description = "Delete instead of archiving, and delete what was archived before.")
    boolean purge;

    @Option(names = "--json", description = "Print the report as one JSON object, every action included.")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter out = main.out();
        try (Workspace w = main.open(Workspace.Access.READ, false)) {
            MaintenanceReport r = w.curator.upkeep().maintain(new MaintenanceRequest(main.namespace(), dryRun, purge));
            if (json) {
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("at", r.at().toString());
                o.put("dry_run", r.dryRun());
                o.put("examined", r.examined());
                o.put("archived", r.archived());
                o.put("purged", r.purged());
                o.put("expired", r.expired());
                o.put("pinned", r.pinned());
                o.put("actions", r.actions().stream().map(a -> Map.of("memory_id", a.memoryId(),
                        "action", a.kind().name().toLowerCase(Locale.ROOT), "retention", a.retention())).toList());
                Output.json(out, o);
                return Main.OK;
            }
            String verb = r.dryRun() ? "would " : "";
            out.printf(Locale.ROOT, "%s%d live memories examined (%d pinned, exempt): %s%s %d, %s%s %d, %s%s %d"
                    + " expired%n", r.dryRun() ? "dry run: " : "", r.examined(), r.pinned(), verb,
                    r.dryRun() ? "archive" : "archived", r.archived(), verb, r.dryRun() ? "purge" : "purged",
                    r.purged(), verb, r.dryRun() ? "archive" : "archived", r.expired());
            List<MaintenanceReport.Action> actions = r.actions();
            for (MaintenanceReport.Action a : actions.subList(0, Math.min(MOST_SHOWN, actions.size()))) {
                out.printf(Locale.ROOT, "  %-7s %s  (retention %.3f)%n", a.kind().name().toLowerCase(Locale.ROOT),
                        a.memoryId(), a.retention());
            }
            if (actions.size() > MOST_SHOWN) {
                out.printf(Locale.ROOT, "  ... and %d more (--json lists them all)%n", actions.size() - MOST_SHOWN);
            }
        }
        return Main.OK;
    }
}
