package dev.memfas.core.lifecycle;

import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.StateStore;
import dev.memfas.upkeep.Orientation;
import dev.memfas.TimeService;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Orientation after time away: reads when the namespace was last oriented (its state), counts the live memories
 * stored since, and records now as the last time seen.
 */
public final class Orienteer {
    /** The state key the last orientation is kept under. */
    public static final String LAST_SEEN = "memfas.last_seen";

    private final MemoryStore store;
    private final StateStore state;
    private final Clock clock;

    public Orienteer(MemoryStore store, StateStore state, Clock clock) {
        this.store = store;
        this.state = state;
        this.clock = clock;
    }

    public Orientation orient(String namespace, ZoneId zone) {
        TimeService.TimeAnchor now = TimeService.of(clock).now(zone);
        Instant lastSeen = state.loadState(namespace, LAST_SEEN).map(Orienteer::parse).orElse(null);
        List<Memory> added = new ArrayList<>();
        store.forEach(namespace, MemoryFilter.all().archived(false), m -> {
            if (lastSeen == null || (m.recordedAt() != null && m.recordedAt().isAfter(lastSeen))) {
                added.add(m);
            }
        });
        List<Memory> newest = added.stream().filter(m -> m.recordedAt() != null)
                .sorted(Comparator.comparing(Memory::recordedAt).reversed().thenComparing(Memory::id))
                .limit(Orientation.MOST_NEWEST).toList();
        state.saveState(namespace, LAST_SEEN, now.instant().toString());
        return new Orientation(now, lastSeen, lastSeen == null ? null : Duration.between(lastSeen, now.instant()),
                added.size(), newest);
    }

    /** The instant saved, or null if the state holds something else (it is then overwritten). */
    private static Instant parse(String saved) {
        try {
            return Instant.parse(saved);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
