package dev.memfas.postgres;

import dev.memfas.spi.SharedStore.Kind;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one write transaction changed, written at its end ({@link #finish}): the namespaces' counts of memories and the
 * change log. Both are written last, in namespace order and then the change counter, so that transactions take these
 * locks in one order (no deadlock) and hold the counter's, which serializes them, only from their last statements to
 * their commit.
 */
final class WriteLog {
    private final Map<String, Long> counts = new TreeMap<>();
    private final List<String> namespaces = new ArrayList<>();
    private final List<String> kinds = new ArrayList<>();
    private final List<String> memoryIds = new ArrayList<>();

    /** A memory was written or deleted (or may have been, elsewhere). */
    void memory(String namespace, String id) {
        change(namespace, Kind.MEMORY, id);
    }

    void memories(String namespace, Iterable<String> ids) {
        ids.forEach(id -> memory(namespace, id));
    }

    /** A namespace's triggers changed, or all of its memories may have. */
    void whole(String namespace, Kind kind) {
        change(namespace, kind, null);
    }

    private void change(String namespace, Kind kind, String id) {
        namespaces.add(namespace);
        kinds.add(kind.name());
        memoryIds.add(id);
    }

    /** A namespace gained (or lost, negative) memories. */
    void counted(String namespace, long memories) {
        counts.merge(namespace, memories, Long::sum);
    }

    /** Writes the counts and the changes, last in the transaction; returns the last change number, or -1. */
    long finish(Connection c, String origin) throws SQLException {
        if (!counts.isEmpty()) {
            NamespacesTable.add(c, counts);
        }
        if (namespaces.isEmpty()) {
            return -1;
        }
        return ChangeLog.append(c, origin, namespaces, kinds, memoryIds);
    }
}
