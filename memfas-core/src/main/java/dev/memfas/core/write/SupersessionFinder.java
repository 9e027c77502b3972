package dev.memfas.core.write;

import dev.memfas.Memory;
import dev.memfas.core.text.NormalizedText;
import dev.memfas.core.vector.Hits;
import dev.memfas.core.vector.NamespaceIndexes;
import dev.memfas.core.vector.VectorIndex;
import dev.memfas.policy.SupersessionPolicy;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.StoredMemory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The write-time update rule ({@link SupersessionPolicy}): for each memory a write added, the stored memory it most
 * likely updates, and what becomes of both. Runs under the writer's lock right after the write, so the memories of
 * the same batch are found too (a conversation stored at once); costs one vector search per new memory, and nothing
 * when the policy is off.
 */
final class SupersessionFinder {
    /** How many nearest memories are looked at. */
    private static final int LOOKUP = 10;

    private final MemoryStore store;
    private final NamespaceIndexes indexes;
    private final SupersessionPolicy policy;

    SupersessionFinder(MemoryStore store, NamespaceIndexes indexes, SupersessionPolicy policy) {
        this.store = store;
        this.indexes = indexes;
        this.policy = policy;
    }

    boolean isOff() {
        return policy.mode() == SupersessionPolicy.Mode.OFF;
    }

    /**
     * The changes the policy makes after a write: the new memories that gained a suggestion or a {@code supersedes},
     * and the stored memories they superseded. Empty when the policy is off or nothing was found.
     *
     * @param added the memories the write added (not those it replaced by id), as written
     * @param vectors their vectors, by id
     */
    List<Memory> changes(List<Memory> added, Map<String, float[]> vectors, Instant now) {
        if (isOff() || added.isEmpty()) {
            return List.of();
        }
        List<Memory> ordered = new ArrayList<>(added);
        ordered.sort(Comparator.comparing(Memory::createdAt));
        Map<String, Memory> changed = new LinkedHashMap<>();
        Set<String> taken = new HashSet<>();
        for (Memory m : ordered) {
            float[] vector = vectors.get(m.id());
            VectorIndex index = vector == null ? null : indexes.indexFor(m.namespace());
            if (index == null) {
                continue;
            }
            Memory old = candidate(m, index.search(vector, LOOKUP, 1), changed, taken, now);
            if (old == null) {
                continue;
            }
            Memory current = changed.getOrDefault(m.id(), m);
            if (policy.mode() == SupersessionPolicy.Mode.SUGGEST) {
                changed.put(m.id(), current.toBuilder().metadata(SupersessionPolicy.SUGGESTION_KEY, old.id()).build());
                continue;
            }
            taken.add(old.id());
            List<String> supersedes = new ArrayList<>(current.supersedes());
            supersedes.add(old.id());
            changed.put(m.id(), current.toBuilder().supersedes(supersedes).build());
            Instant from = m.validFrom() != null ? m.validFrom() : m.createdAt();
            changed.put(old.id(), changed.getOrDefault(old.id(), old).toBuilder().supersededBy(m.id())
                    .validUntil(from).updatedAt(now).build());
        }
        return List.copyOf(changed.values());
    }

    /** The stored memory a new one would supersede (or be suggested for), for a dry run; null if none or off. */
    Memory wouldUpdate(Memory m, float[] vector, Instant now) {
        VectorIndex index = isOff() || vector == null ? null : indexes.indexFor(m.namespace());
        return index == null ? null : candidate(m, index.search(vector, LOOKUP, 1), Map.of(), Set.of(), now);
    }

    /** The closest stored memory the new one may update, or null. */
    private Memory candidate(Memory m, Hits hits, Map<String, Memory> changed, Set<String> taken, Instant now) {
        Map<String, Float> cosines = new LinkedHashMap<>();
        for (int h = 0; h < hits.size(); h++) {
            String id = hits.ids()[h];
            if (hits.scores()[h] >= policy.similarity() && !id.equals(m.id()) && !taken.contains(id)) {
                cosines.put(id, hits.scores()[h]);
            }
        }
        if (cosines.isEmpty()) {
            return null;
        }
        Map<String, Memory> stored = new HashMap<>();
        for (StoredMemory s : store.getAll(m.namespace(), cosines.keySet())) {
            stored.put(s.memory().id(), changed.getOrDefault(s.memory().id(), s.memory()));
        }
        String text = NormalizedText.normalize(m.text());
        // Hits are best first: the first that qualifies is the closest.
        for (String id : cosines.keySet()) {
            Memory old = stored.get(id);
            if (old != null && qualifies(m, old, text, now)) {
                return old;
            }
        }
        return null;
    }

    /** Whether {@code old} is an earlier, different statement of the same kind of record, in force now. */
    private static boolean qualifies(Memory m, Memory old, String normalizedText, Instant now) {
        Instant from = m.validFrom() != null ? m.validFrom() : m.createdAt();
        return old.scope().equals(m.scope()) && old.kind().equals(m.kind())
                && old.createdAt().isBefore(m.createdAt())
                && (old.validFrom() == null || old.validFrom().isBefore(from))
                && !old.isSuperseded() && !old.isArchived() && old.isValidAt(now) && !old.isExpiredAt(now)
                && !NormalizedText.normalize(old.text()).equals(normalizedText);
    }
}
