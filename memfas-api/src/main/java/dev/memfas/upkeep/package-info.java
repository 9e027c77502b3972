/**
 * What runs beside a curator's turns, through {@link dev.memfas.upkeep.Upkeep} ({@code curator.upkeep()}): maintenance
 * ({@link dev.memfas.upkeep.MaintenanceRequest}), summaries ({@link dev.memfas.upkeep.SummarizeRequest}), orientation
 * after time away, the agent's events ({@link dev.memfas.upkeep.AgentEvent}) and feedback on what a context held,
 * with what each returns.
 */
package dev.memfas.upkeep;
