package dev.memfas.core.turn;

import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.spi.MemoryStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Reads a namespace's newest memories without reading them all: a window of time at a time, a day, then a week, a
 * month, a year and then all, until the window holds as many as are wanted. A namespace written to today reads
 * today's memories only (through the stores' index by creation time, SQLite's {@code memories_by_time}), one untouched
 * for a year reads them all once. For calls made once in a while (a session's start, a list of patterns), not a
 * turn's work.
 */
public final class LatestMemories {
    private static final List<Duration> WINDOWS =
            List.of(Duration.ofDays(1), Duration.ofDays(7), Duration.ofDays(30), Duration.ofDays(365));
    /** Newest first; ties by id, so that the same memories read the same order. */
    public static final Comparator<Memory> NEWEST_FIRST =
            Comparator.comparing(Memory::createdAt).reversed().thenComparing(Memory::id);

    private LatestMemories() {}

    /**
     * The {@code want} newest memories that {@code inForce} admits, newest first, of those {@code filter} (null for
     * any) lets through, counting back from the moment {@code inForce} is about.
     */
    public static List<Memory> read(MemoryStore store, String namespace, MemoryFilter filter, InForce inForce,
            int want) {
        MemoryFilter base = filter != null ? filter : MemoryFilter.all();
        Instant at = inForce.at();
        for (int w = 0; w <= WINDOWS.size(); w++) {
            MemoryFilter window = base;
            if (w < WINDOWS.size()) {
                Instant since = at.minus(WINDOWS.get(w));
                if (base.since() == null || base.since().isBefore(since)) {
                    window = base.since(since);
                }
            }
            PriorityQueue<Memory> newest = new PriorityQueue<>(NEWEST_FIRST.reversed());
            store.forEach(namespace, window, m -> {
                if (inForce.admits(m)) {
                    newest.add(m);
                    if (newest.size() > want) {
                        newest.poll();
                    }
                }
            });
            // Enough found, or this window read everything the filter allows: a wider one would read the same.
            if (newest.size() >= want || window == base) {
                List<Memory> ordered = new ArrayList<>(newest);
                ordered.sort(NEWEST_FIRST);
                return ordered;
            }
        }
        throw new AssertionError("the last window is the filter itself");
    }
}
