package dev.memfas;

/**
 * Receives every turn's telemetry in the process, e.g. to feed metrics. Called on the thread that ran
 * {@code getContext}, after the context is made; keep it quick. A listener that throws is logged and otherwise
 * ignored: it never breaks {@code getContext}.
 */
@FunctionalInterface
public interface TelemetryListener {
    /** Takes one turn's telemetry. */
    void onTurn(TurnTelemetry turn);
}
