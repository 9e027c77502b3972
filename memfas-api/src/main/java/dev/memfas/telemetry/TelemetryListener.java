package dev.memfas.telemetry;

/**
 * Receives every turn's telemetry in the process, e.g. to feed metrics, and every usage report. Called on the thread
 * that ran {@code getContext} (after the context is made) or {@code reportUsage} (after it is recorded); keep it
 * quick. A listener that throws is logged and otherwise ignored: it never breaks the call.
 */
@FunctionalInterface
public interface TelemetryListener {
    /** Takes one turn's telemetry. */
    void onTurn(TurnTelemetry turn);

    /** Takes one usage report; ignored unless overridden. */
    default void onUsage(UsageTelemetry usage) {}
}
