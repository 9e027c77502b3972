package dev.memfas.upkeep;

import dev.memfas.MemfasException;
import dev.memfas.Memory;
import dev.memfas.TimeService;
import dev.memfas.policy.RetentionPolicy;
import dev.memfas.policy.Summarizer;
import java.time.ZoneId;
import java.util.Collection;

/**
 * What runs beside a curator's turns ({@link dev.memfas.ContextCurator#upkeep()}): maintenance and summaries of a
 * namespace, orientation after time away, the agent's events, feedback on what a context held, and time on the
 * curator's clock. Nothing here runs on its own: call it, or schedule it on an executor of yours. Thread-safe.
 */
public interface Upkeep {
    /**
     * Maintains one namespace on the curator's clock: archives expired memories, and the live memories whose retention
     * ({@link RetentionPolicy}) fell below the curator's threshold, pinned ones exempt from the second. Archived
     * memories are kept, and used in no context or search until {@link dev.memfas.Memories#restore restored}; a purge
     * deletes them instead, with those archived before. A dry run changes nothing and reports what it would do.
     */
    MaintenanceReport maintain(MaintenanceRequest request);

    /**
     * Consolidates old memories: the live memories of the namespace dated at least {@code olderThan} before now and
     * allowed by the filter (never pinned ones, nor summaries) are grouped by source and scope, in runs of at most 20
     * in date order, and each run of two or more becomes one summary memory (kind {@code summary}, written by the
     * curator's {@link Summarizer}, dated as the run's newest) whose {@link Memory#supersedes()} names the run. The
     * originals are archived and marked superseded by it: out of contexts and searches, kept, each restorable. A dry
     * run changes nothing and returns the summaries it would write.
     *
     * @throws MemfasException if the summarizer fails or returns a text over the cap; nothing is changed
     */
    SummaryReport summarize(SummarizeRequest request);

    /**
     * Orients an agent coming back to a namespace: the time now in the zone, when the namespace was last oriented and
     * how long ago, and the live memories stored since (all of them the first time). Records now as the last time
     * seen, in the namespace's state.
     */
    Orientation orient(String namespace, ZoneId zone);

    /**
     * Reports something that happened in the agent's work: an error, a decision or user feedback becomes a memory of
     * kind {@code error}, {@code decision} or {@code feedback} (source {@code event}; a repeat of a stored one adds
     * evidence instead); an error first looks up the most similar past errors with what fixed them, and a {@code fix}
     * detail is kept on the stored error; the end of a session drops its state; other events are not remembered.
     */
    EventOutcome reportEvent(AgentEvent event);

    /**
     * Tells the curator whether memories it included in a session's context helped, in the default namespace; see
     * {@link #reportUsage(String, String, Collection, boolean)}.
     */
    default UsageReport reportUsage(String sessionId, Collection<String> memoryIds, boolean helpful) {
        return reportUsage(Memory.DEFAULT_NAMESPACE, sessionId, memoryIds, helpful);
    }

    /**
     * Tells the curator whether memories it included in a session's context helped. Helpful memories of the namespace
     * have their access count raised; unhelpful ones lose their "hot" standing in the session. Nothing is written
     * outside the namespace: ids that name no memory of it are returned as unknown, and a session that lives in
     * another namespace is refused.
     *
     * @return which ids were recorded and which named nothing
     * @throws IllegalArgumentException if the namespace or session id is blank or malformed, or the session is in
     *     progress in another namespace
     */
    UsageReport reportUsage(String namespace, String sessionId, Collection<String> memoryIds, boolean helpful);

    /** Time on the curator's clock: now in a zone, what "last week" means, durations in words. */
    TimeService time();
}
