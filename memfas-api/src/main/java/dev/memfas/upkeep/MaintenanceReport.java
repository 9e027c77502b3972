package dev.memfas.upkeep;

import dev.memfas.ContextCurator;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What one run of {@link Upkeep#maintain} did, or would do on a dry run.
 *
 * @param at the time on the curator's clock the run measured retention at
 * @param namespace the namespace maintained
 * @param dryRun whether nothing was changed
 * @param examined how many live memories were looked at for retention (archived and expired ones are not)
 * @param archived how many were archived because their retention fell (or, on a dry run, would be)
 * @param purged how many were deleted because the request purges: those that fell below the threshold, and those
 *     archived before
 * @param expired how many expired memories were archived (or, on a purge, deleted)
 * @param pinned how many pinned memories were exempt
 * @param actions every memory acted on, in the order acted on
 */
public record MaintenanceReport(Instant at, String namespace, boolean dryRun, int examined, int archived, int purged,
        int expired, int pinned, List<Action> actions) {

    /** One memory acted on. */
    public enum Kind {
        /** Archived: kept, used no more until restored. */
        ARCHIVE,
        /** Deleted by a purge. */
        PURGE,
        /** Archived because it expired, pinned or not: kept, used no more until restored. */
        EXPIRE
    }

    /**
     * One memory acted on.
     *
     * @param memoryId the memory
     * @param kind what was done
     * @param retention its retention at the time (1 for an expired or already archived memory, which is not scored)
     */
    public record Action(String memoryId, Kind kind, double retention) {
        /** Checks the parts are present. */
        public Action {
            Objects.requireNonNull(memoryId, "memoryId");
            Objects.requireNonNull(kind, "kind");
        }
    }

    /** Copies the list. */
    public MaintenanceReport {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(namespace, "namespace");
        actions = List.copyOf(actions);
    }
}
