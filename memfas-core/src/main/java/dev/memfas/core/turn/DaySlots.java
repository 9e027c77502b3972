package dev.memfas.core.turn;

import java.util.Arrays;

/**
 * A turn's days numbered: an open-addressing table of source and UTC day number, each day a slot, for the tables that
 * keep something per day in arrays indexed by slot ({@link DayPrior.Table}). Kept for the next
 * turn. Not thread-safe.
 */
final class DaySlots {
    private String[] sources = new String[64];
    private long[] dayNumbers = new long[64];
    private boolean taken;

    /**
     * Empties the table for a turn of up to {@code days} days.
     *
     * @return the number of slots, a power of two at least twice {@code days}: the size the caller's arrays must have
     */
    int reset(int days) {
        int capacity = Integer.highestOneBit(Math.max(16, days) * 2 - 1) << 1;
        if (sources.length < capacity) {
            sources = new String[capacity];
            dayNumbers = new long[capacity];
        } else {
            Arrays.fill(sources, null);
        }
        return sources.length;
    }

    /** The slot of a source's day, taken if the day is new this turn ({@link #taken} says so). */
    int slot(String source, long day) {
        int mask = sources.length - 1;
        int i = (source.hashCode() * 31 + Long.hashCode(day)) & mask;
        while (sources[i] != null) {
            if (dayNumbers[i] == day && sources[i].equals(source)) {
                taken = false;
                return i;
            }
            i = (i + 1) & mask;
        }
        sources[i] = source;
        dayNumbers[i] = day;
        taken = true;
        return i;
    }

    /** Whether the last {@link #slot} call took a new slot, whose values the caller must start afresh. */
    boolean taken() {
        return taken;
    }
}
