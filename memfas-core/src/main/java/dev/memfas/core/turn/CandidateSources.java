package dev.memfas.core.turn;

import dev.memfas.spi.LexicalHit;
import dev.memfas.core.vector.Hits;
import dev.memfas.core.vector.VectorIndex;
import java.util.List;
import java.util.Set;

/**
 * Where a turn's candidates came from: the vector index and its hits, the BM25 hits and the trigger-linked ids. A
 * memory that joins the candidates later (a neighbor) takes its signals from here, as it would have had it been found
 * the first time.
 *
 * @param index the namespace's vector index, or null without an embedder
 */
public record CandidateSources(VectorIndex index, Hits hits, List<LexicalHit> lexical, Set<String> linkedIds) {

    /** Where the vector scan returned the memory among its hits, or -1 if it did not. */
    int hit(String id) {
        // Hash first: a String caches its hash, so most hits are passed over without reading their characters; a
        // turn joins up to a few hundred memories against as many hits.
        String[] ids = hits.ids();
        int hash = id.hashCode();
        for (int i = 0; i < ids.length; i++) {
            if (ids[i].hashCode() == hash && ids[i].equals(id)) {
                return i;
            }
        }
        return -1;
    }

    /** The cosine of the vector scan's hit ({@link #hit}), or NaN for -1. */
    float cosine(int hit) {
        return hit < 0 ? Float.NaN : hits.scores()[hit];
    }

    /** The slot the scan found the hit ({@link #hit}) in, or -1 for -1. */
    int slot(int hit) {
        return hit < 0 ? -1 : hits.slots()[hit];
    }

    /** The memory's BM25 score, or 0 if the lexical search did not return it. */
    double bm25(String id) {
        int hash = id.hashCode();
        double score = 0.0;
        for (LexicalHit h : lexical) {
            if (h.memoryId().hashCode() == hash && h.memoryId().equals(id)) {
                score = h.score();
            }
        }
        return score;
    }

    boolean linked(String id) {
        return linkedIds.contains(id);
    }
}
