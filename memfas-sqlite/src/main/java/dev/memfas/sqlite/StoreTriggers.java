package dev.memfas.sqlite;

import dev.memfas.Trigger;
import dev.memfas.spi.SharedStore.Kind;
import java.util.List;
import java.util.Objects;

/**
 * The store's triggers ({@link dev.memfas.spi.TriggerStore}): the arguments checked, each call one transaction of
 * {@link TriggersTable}, and every change logged for other processes ({@link ChangeLog}). Thread-safe.
 */
final class StoreTriggers {
    private final SqliteDatabase db;
    private final String origin;

    StoreTriggers(SqliteDatabase db, String origin) {
        this.db = db;
        this.origin = origin;
    }

    void put(Trigger trigger) {
        Objects.requireNonNull(trigger, "trigger");
        db.write("write trigger", c -> {
            TriggersTable.put(c, trigger);
            ChangeLog.append(c, origin, trigger.namespace(), Kind.TRIGGERS, null);
            return null;
        }, null);
    }

    boolean remove(String namespace, String keyword) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(keyword, "keyword");
        return db.write("remove trigger", c -> {
            boolean removed = TriggersTable.remove(c, namespace, keyword);
            if (removed) {
                ChangeLog.append(c, origin, namespace, Kind.TRIGGERS, null);
            }
            return removed;
        }, null);
    }

    List<Trigger> all(String namespace) {
        Objects.requireNonNull(namespace, "namespace");
        return db.read("read triggers", c -> TriggersTable.all(c, namespace));
    }
}
