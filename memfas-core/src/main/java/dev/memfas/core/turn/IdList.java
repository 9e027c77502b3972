package dev.memfas.core.turn;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.RandomAccess;

/**
 * A list of distinct ids in the order they were first added, reused turn after turn: what a turn asks the store for.
 * A {@code LinkedHashSet} of the same ids allocated an entry per id, every turn. Not thread-safe.
 */
final class IdList extends AbstractList<String> implements RandomAccess {
    private String[] ids = new String[256];
    private int size;
    private final IdPositions positions = new IdPositions();

    @Override
    public void clear() {
        Arrays.fill(ids, 0, size, null);
        size = 0;
        positions.clear();
    }

    /** Adds the id unless it is already in. */
    void addIfAbsent(String id) {
        if (contains(id)) {
            return;
        }
        if (size == ids.length) {
            ids = Arrays.copyOf(ids, 2 * size);
        }
        ids[size] = id;
        positions.put(ids, size);
        size++;
    }

    @Override
    public boolean contains(Object id) {
        return id instanceof String s && positions.get(ids, s) >= 0;
    }

    @Override
    public String get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException(index);
        }
        return ids[index];
    }

    @Override
    public int size() {
        return size;
    }
}
