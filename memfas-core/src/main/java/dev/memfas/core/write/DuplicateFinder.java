package dev.memfas.core.write;

import dev.memfas.Memory;
import dev.memfas.core.envelope.Kinds;
import dev.memfas.core.text.NormalizedText;
import dev.memfas.core.vector.Hits;
import dev.memfas.core.vector.NamespaceIndexes;
import dev.memfas.core.vector.VectorIndex;
import dev.memfas.policy.DuplicatePolicy;
import dev.memfas.spi.Embeddings;
import dev.memfas.spi.LexicalHit;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.StoredMemory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The write-time duplicate rule ({@link DuplicatePolicy}): for each memory of a batch that was given without an id,
 * whether a stored memory (or an earlier one of the batch) already says it, and so what is written, what is returned
 * and whose evidence count rises. Runs under the writer's lock, so the store and the index it reads do not move.
 */
final class DuplicateFinder {
    /** How many nearest stored memories are looked at: a duplicate is among the first few. */
    private static final int LOOKUP = 10;
    /**
     * Below this cosine a stored memory is not read to compare its text: texts equal but for case, punctuation and
     * spacing embed far above it ("Deploys run on Fridays." and the same without its period: 0.972 with bge-small).
     */
    private static final float EXACT_CANDIDATE_COSINE = 0.9f;

    private final MemoryStore store;
    private final NamespaceIndexes indexes;
    private final DuplicatePolicy policy;

    DuplicateFinder(MemoryStore store, NamespaceIndexes indexes, DuplicatePolicy policy) {
        this.store = store;
        this.indexes = indexes;
        this.policy = policy;
    }

    /**
     * What becomes of a batch.
     *
     * @param written the memories to write, in order, with their vectors (none without an embedder)
     * @param returned for each memory of the batch, what {@code remember} returns for it
     * @param evidence the ids, by namespace, whose evidence count rises once per occurrence (after the write)
     */
    record Outcome(List<Memory> written, Embeddings embeddings, List<Memory> returned,
            Map<String, List<String>> evidence) {}

    /**
     * @param memories the batch, ready to store
     * @param embeddings their vectors, or none
     * @param unnamed which were given without an id
     * @param dated which were given a {@code createdAt}
     */
    Outcome resolve(List<Memory> memories, Embeddings embeddings, boolean[] unnamed, boolean[] dated, Instant now) {
        List<Memory> written = new ArrayList<>(memories.size());
        List<float[]> vectors = new ArrayList<>(memories.size());
        List<Memory> returned = new ArrayList<>(memories.size());
        Map<String, List<String>> evidence = new LinkedHashMap<>();
        Map<String, Memory> batch = new HashMap<>();
        for (int i = 0; i < memories.size(); i++) {
            Memory m = memories.get(i);
            float[] vector = embeddings.isEmpty() ? null : embeddings.vector(i);
            Memory result = m;
            Memory write = m;
            if (unnamed[i] && policy.mode() != DuplicatePolicy.Mode.KEEP_ALL) {
                // Guidance is the same whenever it is said; an event said at two given moments is two events.
                boolean event = dated[i] && !Kinds.isGuidance(m.kind());
                String key = recordKey(m, event);
                Memory earlier = batch.get(key);
                Match match = earlier != null ? new Match(earlier, true) : find(m, vector, event, now);
                if (match != null) {
                    evidence.computeIfAbsent(m.namespace(), k -> new ArrayList<>()).add(match.stored().id());
                    if (match.exact() || policy.mode() == DuplicatePolicy.Mode.SKIP_SIMILAR) {
                        result = match.stored();
                        write = null;
                    } else {
                        result = match.stored().toBuilder().text(m.text()).updatedAt(now).build();
                        write = result;
                    }
                } else {
                    batch.put(key, m);
                }
            }
            returned.add(result);
            if (write != null) {
                written.add(write);
                if (vector != null) {
                    vectors.add(vector);
                }
            }
        }
        Embeddings kept = embeddings.isEmpty() ? Embeddings.none() : Embeddings.of(embeddings.space(), vectors);
        return new Outcome(written, kept, returned, evidence);
    }

    private record Match(Memory stored, boolean exact) {}

    /** The stored memory the new one duplicates, exactly or (if the policy looks for them) by similarity; or null. */
    private Match find(Memory m, float[] vector, boolean dated, Instant now) {
        VectorIndex index = vector == null ? null : indexes.indexFor(m.namespace());
        Map<String, Float> cosines = new LinkedHashMap<>();
        if (index != null && index.size() > 0) {
            Hits hits = index.search(vector, LOOKUP, 1);
            for (int h = 0; h < hits.size(); h++) {
                if (hits.scores()[h] >= Math.min(EXACT_CANDIDATE_COSINE, policy.similarity())) {
                    cosines.put(hits.ids()[h], hits.scores()[h]);
                }
            }
        } else {
            for (LexicalHit hit : store.searchLexical(m.namespace(), m.text(), LOOKUP)) {
                cosines.put(hit.memoryId(), Float.NaN);
            }
        }
        if (cosines.isEmpty()) {
            return null;
        }
        String text = NormalizedText.normalize(m.text());
        Match similar = null;
        for (StoredMemory s : store.getAll(m.namespace(), cosines.keySet())) {
            Memory stored = s.memory();
            if (!sameRecord(m, stored, dated, now)) {
                continue;
            }
            if (NormalizedText.normalize(stored.text()).equals(text)) {
                return new Match(stored, true);
            }
            float cosine = cosines.get(stored.id());
            if (similar == null && policy.mode() != DuplicatePolicy.Mode.SKIP_EXACT && cosine >= policy.similarity()) {
                similar = new Match(stored, false);
            }
        }
        return similar;
    }

    /** Whether the stored memory is the same kind of record as the new one, and in force now. */
    private static boolean sameRecord(Memory m, Memory stored, boolean dated, Instant now) {
        return stored.scope().equals(m.scope()) && stored.source().equals(m.source())
                && stored.kind().equals(m.kind()) && !stored.isSuperseded() && !stored.isArchived()
                && stored.isValidAt(now)
                && !stored.isExpiredAt(now) && (!dated || stored.createdAt().equals(m.createdAt()));
    }

    /** What makes two memories of one batch the same record with the same text. */
    private static String recordKey(Memory m, boolean dated) {
        return String.join("\u0000", m.namespace(), m.scope().toString(), m.source(), m.kind(),
                dated ? m.createdAt().toString() : "", NormalizedText.normalize(m.text()));
    }
}
