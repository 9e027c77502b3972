package dev.memfas.core.curator;

import dev.memfas.telemetry.ExtractionTelemetry;
import dev.memfas.telemetry.SessionSummary;
import dev.memfas.telemetry.TelemetryListener;
import dev.memfas.telemetry.TurnTelemetry;
import dev.memfas.telemetry.UsageTelemetry;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The curator's telemetry listeners, told of each turn, each usage report, each session's end and each conversation's
 * facts taken. A listener that throws is logged and skipped for that event: it never breaks the call. Immutable and
 * thread-safe.
 */
public final class Listeners {
    private static final Logger LOG = LoggerFactory.getLogger(MemoryCurator.class);

    private final List<TelemetryListener> all;

    Listeners(List<TelemetryListener> all) {
        this.all = List.copyOf(all);
    }

    public boolean isEmpty() {
        return all.isEmpty();
    }

    void turn(TurnTelemetry turn) {
        tell(l -> l.onTurn(turn), "turn");
    }

    public void usage(UsageTelemetry usage) {
        tell(l -> l.onUsage(usage), "usage report");
    }

    void sessionEnded(SessionSummary session) {
        tell(l -> l.onSessionEnd(session), "session summary");
    }

    void extraction(ExtractionTelemetry extraction) {
        tell(l -> l.onExtraction(extraction), "extraction");
    }

    private void tell(Consumer<TelemetryListener> event, String what) {
        for (TelemetryListener listener : all) {
            try {
                event.accept(listener);
            } catch (RuntimeException e) {
                LOG.warn("telemetry listener {} failed; ignoring it for this {}", listener, what, e);
            }
        }
    }
}
