package dev.memfas.core.store;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The order in which a namespace's memories were first stored: their entries in one array, a deleted one leaving
 * a hole until the holes outnumber the live entries and the array is compacted.
 */
final class StorageOrder<E extends StorageOrder.Positioned> {
    /** What the order keeps of an entry: where it stands. */
    abstract static class Positioned {
        int position;
    }

    private static final int MIN_COMPACTION = 64;
    private Object[] entries = new Object[16];
    private int size;
    private int holes;

    void append(E e) {
        if (size == entries.length) {
            entries = Arrays.copyOf(entries, size * 2);
        }
        e.position = size;
        entries[size++] = e;
    }

    void replace(E old, E e) {
        e.position = old.position;
        entries[e.position] = e;
    }

    /** Removes the entry; {@code liveCount} is how many entries remain live. */
    void remove(E e, int liveCount) {
        entries[e.position] = null;
        holes++;
        if (holes >= MIN_COMPACTION && holes > liveCount) {
            int n = 0;
            for (int i = 0; i < size; i++) {
                @SuppressWarnings("unchecked")
                E kept = (E) entries[i];
                if (kept != null) {
                    kept.position = n;
                    entries[n++] = kept;
                }
            }
            Arrays.fill(entries, n, size, null);
            size = n;
            holes = 0;
        }
    }

    /** The entry and up to {@code radius} live entries on each side, in order. */
    @SuppressWarnings("unchecked")
    List<E> around(E e, int radius) {
        ArrayDeque<E> window = new ArrayDeque<>(2 * radius + 1);
        window.add(e);
        for (int i = e.position - 1, found = 0; i >= 0 && found < radius; i--) {
            if (entries[i] != null) {
                window.addFirst((E) entries[i]);
                found++;
            }
        }
        for (int i = e.position + 1, found = 0; i < size && found < radius; i++) {
            if (entries[i] != null) {
                window.addLast((E) entries[i]);
                found++;
            }
        }
        return new ArrayList<>(window);
    }
}
