package dev.memfas.core.lifecycle;

import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.core.write.MemoryWriter;
import dev.memfas.policy.RetentionPolicy;
import dev.memfas.spi.MemoryStore;
import dev.memfas.upkeep.MaintenanceReport;
import dev.memfas.upkeep.MaintenanceRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One run of maintenance over a namespace: expired memories are archived (turns left them out the moment they
 * expired), pinned ones too, since their writer set the expiry; live ones whose retention fell below the policy's
 * threshold are archived, pinned ones exempt; on a purge, what would be archived is deleted, with those archived
 * before. Nothing is deleted but by a purge asked for. It
 * decides from one read of the namespace, then writes through the writer, so indexes and pins stay in step; a dry run
 * stops after deciding.
 */
public final class Maintenance {
    private final MemoryStore store;
    private final MemoryWriter writer;
    private final RetentionPolicy policy;

    public Maintenance(MemoryStore store, MemoryWriter writer, RetentionPolicy policy) {
        this.store = store;
        this.writer = writer;
        this.policy = policy;
    }

    public MaintenanceReport run(MaintenanceRequest request, Instant now) {
        String namespace = request.namespace();
        List<MaintenanceReport.Action> actions = new ArrayList<>();
        List<String> deleted = new ArrayList<>();
        List<String> archived = new ArrayList<>();
        int[] counts = new int[3]; // examined, pinned, expired
        store.forEachStored(namespace, MemoryFilter.all(), s -> {
            Memory m = s.memory();
            if (m.isArchived()) {
                if (request.purge()) {
                    actions.add(new MaintenanceReport.Action(m.id(), MaintenanceReport.Kind.PURGE, 1));
                    deleted.add(m.id());
                }
                return;
            }
            if (m.isExpiredAt(now)) {
                counts[2]++;
                if (request.purge()) {
                    actions.add(new MaintenanceReport.Action(m.id(), MaintenanceReport.Kind.PURGE, 1));
                    deleted.add(m.id());
                } else {
                    actions.add(new MaintenanceReport.Action(m.id(), MaintenanceReport.Kind.EXPIRE, 1));
                    archived.add(m.id());
                }
                return;
            }
            counts[0]++;
            if (m.pinned()) {
                counts[1]++;
                return;
            }
            double retention = policy.retention(s, now);
            if (retention < policy.archiveBelow()) {
                if (request.purge()) {
                    actions.add(new MaintenanceReport.Action(m.id(), MaintenanceReport.Kind.PURGE, retention));
                    deleted.add(m.id());
                } else {
                    actions.add(new MaintenanceReport.Action(m.id(), MaintenanceReport.Kind.ARCHIVE, retention));
                    archived.add(m.id());
                }
            }
        });
        if (!request.dryRun()) {
            writer.forgetAll(namespace, deleted);
            writer.archive(namespace, archived, now);
        }
        int purged = (int) actions.stream().filter(a -> a.kind() == MaintenanceReport.Kind.PURGE).count();
        int archivedAged = archived.size() - (request.purge() ? 0 : counts[2]);
        return new MaintenanceReport(now, namespace, request.dryRun(), counts[0], archivedAged, purged, counts[2],
                counts[1], actions);
    }
}
