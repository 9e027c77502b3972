package dev.memfas.core.turn;

import dev.memfas.MemoryFilter;
import dev.memfas.core.vector.Hits;
import dev.memfas.core.vector.NamespaceIndexes;
import dev.memfas.core.vector.VectorIndex;
import dev.memfas.spi.LexicalHit;
import dev.memfas.spi.MemoryStore;
import java.util.HashSet;
import java.util.Set;

/**
 * The memories of a namespace that are about a filter's topic phrase ({@link MemoryFilter#topic()}): with an embedder,
 * those whose cosine with the phrase reaches the model's relevance floor (the cosine under which a query matches
 * nothing; {@value #UNCALIBRATED_COSINE} for a model without one), found by one scan of the namespace's vectors; without
 * one, those a keyword search for the phrase finds. At most {@value #MOST} memories are on a topic. Thread-safe.
 */
public final class TopicFilter {
    /** The most memories one topic admits: a topic is a filter, not a dump of the store. */
    static final int MOST = 10_000;
    /** The cosine a memory must reach when the model has no calibrated relevance floor. */
    public static final double UNCALIBRATED_COSINE = 0.5;

    private final MemoryStore store;
    private final NamespaceIndexes indexes;
    private final QueryEmbedder embedder;
    private final double threshold;
    private final int scanThreads;

    public TopicFilter(MemoryStore store, NamespaceIndexes indexes, QueryEmbedder embedder, double relevanceFloor,
            int scanThreads) {
        this.store = store;
        this.indexes = indexes;
        this.embedder = embedder;
        this.threshold = relevanceFloor > -1 ? relevanceFloor : UNCALIBRATED_COSINE;
        this.scanThreads = scanThreads;
    }

    /** The ids of the namespace's memories on the filter's topic; null when there is no filter or it has no topic. */
    public Set<String> onTopic(String namespace, MemoryFilter filter) {
        if (filter == null || filter.topic() == null) {
            return null;
        }
        Set<String> ids = new HashSet<>();
        float[] phrase = embedder.embedPhrase(filter.topic());
        VectorIndex index = phrase == null ? null : indexes.indexFor(namespace);
        if (index != null) {
            Hits hits = index.search(phrase, MOST, scanThreads);
            for (int h = 0; h < hits.size(); h++) {
                if (hits.scores()[h] >= threshold) {
                    ids.add(hits.ids()[h]);
                }
            }
        } else {
            for (LexicalHit hit : store.searchLexical(namespace, filter.topic(), MOST)) {
                ids.add(hit.memoryId());
            }
        }
        return ids;
    }
}
