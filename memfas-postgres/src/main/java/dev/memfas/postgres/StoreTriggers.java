package dev.memfas.postgres;

import dev.memfas.Trigger;
import dev.memfas.spi.SharedStore.Kind;
import java.util.List;
import java.util.Objects;

/**
 * The store's triggers ({@link dev.memfas.spi.TriggerStore}): the arguments checked, each call one transaction of
 * {@link TriggersTable}, and every change logged for other processes ({@link WriteLog}). Thread-safe.
 */
final class StoreTriggers {
    private final Database db;
    private final Database reads;
    private final String origin;

    StoreTriggers(Database db, Database reads, String origin) {
        this.db = db;
        this.reads = reads;
        this.origin = origin;
    }

    void put(Trigger trigger) {
        Objects.requireNonNull(trigger, "trigger");
        db.write("write trigger", c -> {
            TriggersTable.put(c, trigger);
            WriteLog log = new WriteLog();
            log.whole(trigger.namespace(), Kind.TRIGGERS);
            log.finish(c, origin);
            return null;
        });
    }

    boolean remove(String namespace, String keyword) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(keyword, "keyword");
        return db.write("remove trigger", c -> {
            boolean removed = TriggersTable.remove(c, namespace, keyword);
            if (removed) {
                WriteLog log = new WriteLog();
                log.whole(namespace, Kind.TRIGGERS);
                log.finish(c, origin);
            }
            return removed;
        });
    }

    List<Trigger> all(String namespace) {
        Objects.requireNonNull(namespace, "namespace");
        return reads.read("read triggers", c -> TriggersTable.all(c, namespace));
    }
}
