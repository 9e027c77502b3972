package dev.memfas.upkeep;

import dev.memfas.ContextCurator;
import dev.memfas.internal.Checks;
import java.util.Objects;

/**
 * One run of {@link Upkeep#maintain}: which namespace, and whether to change nothing or to delete.
 *
 * @param namespace the namespace to maintain
 * @param dryRun report what would be done, changing nothing
 * @param purge delete, instead of archiving, the memories that fall below the retention threshold, and delete the
 *     memories archived before; without it nothing but expired memories is ever deleted
 */
public record MaintenanceRequest(String namespace, boolean dryRun, boolean purge) {
    /**
     * Checks the namespace.
     *
     * @throws IllegalArgumentException if the namespace is blank or malformed
     */
    public MaintenanceRequest {
        Checks.identifier(Objects.requireNonNull(namespace, "namespace"), "namespace", 128);
    }

    /** Archives in the given namespace. */
    public static MaintenanceRequest of(String namespace) {
        return new MaintenanceRequest(namespace, false, false);
    }

    /** This request, as a dry run. */
    public MaintenanceRequest asDryRun() {
        return new MaintenanceRequest(namespace, true, purge);
    }

    /** This request, deleting instead of archiving. */
    public MaintenanceRequest purging() {
        return new MaintenanceRequest(namespace, dryRun, true);
    }
}
