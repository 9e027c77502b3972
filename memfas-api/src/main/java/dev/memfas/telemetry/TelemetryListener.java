package dev.memfas.telemetry;

/**
 * Receives every turn's telemetry in the process, e.g. to feed metrics, every usage report and every session's summary
 * when it ends. Called on the thread that ran {@code getContext} (after the context is made), {@code reportUsage}
 * (after it is recorded), or that ended the session (the event, the turn or write that found it idle or past the most
 * sessions, or {@code close}); keep it quick. A listener that throws is logged and otherwise ignored: it never breaks
 * the call.
 */
@FunctionalInterface
public interface TelemetryListener {
    /** Takes one turn's telemetry. */
    void onTurn(TurnTelemetry turn);

    /** Takes one usage report; ignored unless overridden. */
    default void onUsage(UsageTelemetry usage) {}

    /** Takes the summary of a session that ended; ignored unless overridden. */
    default void onSessionEnd(SessionSummary session) {}
}
