package dev.memfas.upkeep;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.TimeService;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Where an agent stands after time away, as {@link Upkeep#orient} reports it: what time it is, when the
 * namespace was last oriented, how long ago that was, and what was stored since.
 *
 * @param now the time on the curator's clock, in the zone asked for
 * @param lastSeen when the namespace was last oriented; {@code null} the first time
 * @param away how long ago that was; {@code null} the first time
 * @param added how many live memories were stored since ({@link Memory#recordedAt()}); all of them the first time
 * @param newest the most recently stored of those, newest first, at most {@link #MOST_NEWEST}
 */
public record Orientation(TimeService.TimeAnchor now, Instant lastSeen, Duration away, int added,
        List<Memory> newest) {
    /** How many of the memories stored since are listed. */
    public static final int MOST_NEWEST = 5;

    /** Copies the list. */
    public Orientation {
        Objects.requireNonNull(now, "now");
        newest = List.copyOf(newest);
    }
}
