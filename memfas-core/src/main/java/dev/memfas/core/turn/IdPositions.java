package dev.memfas.core.turn;

import java.util.Arrays;

/**
 * The positions of a turn's candidates by memory id: open addressing over an {@code int[]} of positions plus one,
 * with the ids themselves read from the candidate set's id column, so that a lookup allocates nothing and the table
 * is reused turn after turn (a {@code HashMap} allocated a node per candidate, every turn). Not thread-safe.
 */
final class IdPositions {
    private int[] table = new int[512];
    private int size;

    void clear() {
        if (size > 0) {
            Arrays.fill(table, 0);
            size = 0;
        }
    }

    /** Records that {@code ids[position]} is at {@code position}; the id must not be present. */
    void put(String[] ids, int position) {
        if (2 * (size + 1) > table.length) {
            rehash(ids, 2 * table.length);
        }
        insert(ids[position], position);
        size++;
    }

    /** The position of {@code id}, or -1. */
    int get(String[] ids, String id) {
        int mask = table.length - 1;
        for (int i = spread(id.hashCode()) & mask; ; i = (i + 1) & mask) {
            int entry = table[i];
            if (entry == 0) {
                return -1;
            }
            if (ids[entry - 1].equals(id)) {
                return entry - 1;
            }
        }
    }

    private void insert(String id, int position) {
        int mask = table.length - 1;
        int i = spread(id.hashCode()) & mask;
        while (table[i] != 0) {
            i = (i + 1) & mask;
        }
        table[i] = position + 1;
    }

    private void rehash(String[] ids, int capacity) {
        int[] old = table;
        table = new int[capacity];
        for (int entry : old) {
            if (entry != 0) {
                insert(ids[entry - 1], entry - 1);
            }
        }
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }
}
