/**
 * What telemetry consumers receive: a {@link dev.memfas.telemetry.TelemetryListener} is told of every curated turn
 * ({@link dev.memfas.telemetry.TurnTelemetry}) and every usage report
 * ({@link dev.memfas.telemetry.UsageTelemetry}).
 */
package dev.memfas.telemetry;
