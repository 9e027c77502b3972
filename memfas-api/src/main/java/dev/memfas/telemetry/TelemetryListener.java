package dev.memfas.telemetry;

/**
 * Receives every turn's telemetry in the process, e.g. to feed metrics, every usage report, every session's summary
 * when it ends and what each remembered conversation's facts cost. Called on the thread that ran {@code getContext}
 * (after the context is made), {@code reportUsage} (after it is recorded), or that ended the session (the event, the
 * turn or write that found it idle or past the most sessions, or {@code close}); keep it quick. A listener that throws is logged and otherwise ignored: it never breaks
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

    /**
     * Takes what one remembered conversation's facts gave and cost, on the thread that took them (the caller's, or
     * the curator's when the extractor runs in the background); ignored unless overridden.
     */
    default void onExtraction(ExtractionTelemetry extraction) {}
}
