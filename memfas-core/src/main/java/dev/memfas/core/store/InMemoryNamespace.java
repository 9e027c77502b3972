package dev.memfas.core.store;

import dev.memfas.Memory;
import dev.memfas.Trigger;
import dev.memfas.core.text.Bm25Index;
import dev.memfas.spi.StoredMemory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One namespace of the {@link InMemoryMemoryStore}: its memories with their statistics, BM25 index, storage order,
 * earlier versions and triggers, and the changes to them that keep these in step. Not thread-safe:
 * the store's lock guards it.
 */
final class InMemoryNamespace {
    /** One memory with what the store keeps beside it. */
    static final class Entry extends StorageOrder.Positioned {
        final Memory memory;
        final float[] vector;
        long accessCount;
        Instant lastAccessedAt;
        long evidenceCount = 1;
        final Map<String, Integer> tokenCounts = new HashMap<>();

        Entry(Memory memory, float[] vector) {
            this.memory = memory;
            this.vector = vector;
        }

        StoredMemory stored() {
            return new StoredMemory(memory, accessCount, lastAccessedAt, evidenceCount);
        }

        /** A new entry for {@code m} in this one's place, with its vector and statistics. */
        private Entry withMemory(Memory m, float[] newVector) {
            Entry e = new Entry(m, newVector);
            e.accessCount = accessCount;
            e.lastAccessedAt = lastAccessedAt;
            e.evidenceCount = evidenceCount;
            return e;
        }
    }

    final Map<String, Entry> memories = new HashMap<>();
    final Bm25Index lexical = new Bm25Index();
    final Map<String, Trigger> triggers = new LinkedHashMap<>();
    final StorageOrder<Entry> order = new StorageOrder<>();
    /** The states each replaced memory had, oldest first. */
    final Map<String, List<Memory>> versions = new HashMap<>();

    /** Adds the memory, or replaces the one with its id (keeping its statistics and place, its state as a version). */
    void put(Memory m, float[] vector) {
        Entry replaced = memories.get(m.id());
        Entry entry;
        if (replaced != null) {
            versions.computeIfAbsent(m.id(), k -> new ArrayList<>()).add(replaced.memory);
            entry = replaced.withMemory(m, vector);
            order.replace(replaced, entry);
        } else {
            entry = new Entry(m, vector);
            order.append(entry);
        }
        memories.put(m.id(), entry);
        lexical.put(m.id(), m.text());
    }

    /** Marks a live memory archived at {@code at}, keeping its state as a version; returns whether it did. */
    boolean archive(String id, Instant at) {
        Entry e = memories.get(id);
        if (e == null || e.memory.isArchived()) {
            return false;
        }
        versions.computeIfAbsent(id, k -> new ArrayList<>()).add(e.memory);
        Entry marked = e.withMemory(e.memory.toBuilder().archivedAt(at).updatedAt(at).build(), e.vector);
        order.replace(e, marked);
        memories.put(id, marked);
        return true;
    }

    /** Removes the memory, its versions and its index entries. */
    void remove(String id) {
        versions.remove(id);
        Entry e = memories.remove(id);
        if (e != null) {
            lexical.remove(id);
            order.remove(e, memories.size());
        }
    }
}
