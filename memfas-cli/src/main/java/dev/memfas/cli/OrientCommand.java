package dev.memfas.cli;

import dev.memfas.Memory;
import dev.memfas.upkeep.Orientation;
import dev.memfas.TimeService;
import java.io.PrintWriter;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code memfas orient}: what time it is, when the store was last looked at, and what was stored since. */
@Command(name = "orient", description = {"Orient after time away: the time now, when this store was last oriented,"
        + " and what was stored since.", "Records now as the last time seen."})
final class OrientCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @Option(names = "--timezone", paramLabel = "ZONE", description = "An IANA time zone such as Europe/Berlin, or an"
            + " offset (default: this machine's).")
    String timezone;

    @Option(names = "--json", description = "Print it as one JSON object.")
    boolean json;

    @Override
    public Integer call() {
        ZoneId zone;
        try {
            zone = timezone == null ? ZoneId.systemDefault() : ZoneId.of(timezone.strip());
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("--timezone is not a time zone: '" + timezone + "' (an IANA name such"
                    + " as Europe/Berlin, or an offset such as +02:00)");
        }
        PrintWriter out = main.out();
        try (Workspace w = main.open(Workspace.Access.READ, false)) {
            Orientation o = w.curator.upkeep().orient(main.namespace(), zone);
            String now = o.now().local().toOffsetDateTime().toString();
            if (json) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("now", now);
                m.put("timezone", zone.getId());
                m.put("last_seen", o.lastSeen() == null ? null : o.lastSeen().toString());
                m.put("away_seconds", o.away() == null ? null : o.away().toSeconds());
                m.put("added", o.added());
                m.put("newest", o.newest().stream().map(Output::memory).toList());
                Output.json(out, m);
                return Main.OK;
            }
            out.printf(Locale.ROOT, "now: %s (%s, %d-W%02d)%n", now,
                    o.now().local().getDayOfWeek().toString().toLowerCase(Locale.ROOT), o.now().isoWeekYear(),
                    o.now().isoWeek());
            if (o.lastSeen() == null) {
                out.printf(Locale.ROOT, "first orientation: %d memories in the store%n", o.added());
            } else {
                out.printf(Locale.ROOT, "last seen %s, %s; %d memories stored since%n",
                        o.lastSeen().atZone(zone).toOffsetDateTime(), TimeService.formatDuration(o.away().negated()),
                        o.added());
            }
            for (Memory m : o.newest()) {
                out.printf(Locale.ROOT, "  %s  %s  %s%n", Output.day(m.recordedAt()), m.id(), Main.oneLine(m.text(),
                        100));
            }
        }
        return Main.OK;
    }
}
