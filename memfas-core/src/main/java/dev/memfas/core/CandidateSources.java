package dev.memfas.core;

import dev.memfas.LexicalHit;
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
record CandidateSources(VectorIndex index, Hits hits, List<LexicalHit> lexical, Set<String> linkedIds) {

    /** The memory's cosine from the vector scan, or NaN if the scan did not return it. */
    float cosine(String id) {
        int hit = hit(id);
        return hit < 0 ? Float.NaN : hits.scores()[hit];
    }

    /** The slot the scan found the memory in, or -1. */
    int slot(String id) {
        int hit = hit(id);
        return hit < 0 ? -1 : hits.slots()[hit];
    }

    /** The memory's BM25 score, or 0 if the lexical search did not return it. */
    double bm25(String id) {
        double score = 0.0;
        for (LexicalHit h : lexical) {
            if (h.memoryId().equals(id)) {
                score = h.score();
            }
        }
        return score;
    }

    boolean linked(String id) {
        return linkedIds.contains(id);
    }

    private int hit(String id) {
        String[] ids = hits.ids();
        for (int i = 0; i < ids.length; i++) {
            if (ids[i].equals(id)) {
                return i;
            }
        }
        return -1;
    }
}
