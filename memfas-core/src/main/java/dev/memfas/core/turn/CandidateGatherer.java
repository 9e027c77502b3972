package dev.memfas.core.turn;

import dev.memfas.core.vector.Hits;
import dev.memfas.core.vector.NamespaceIndexes;
import dev.memfas.core.vector.VectorIndex;
import dev.memfas.core.vector.VectorSearch;
import dev.memfas.spi.LexicalHit;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.StoredMemory;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Gathers a turn's candidates: the top {@code candidateLimit} memories by cosine from the namespace's vector index,
 * unioned with the store's top {@code candidateLimit} BM25 hits, the memories linked from fired triggers and the
 * pinned memories; those the turn may not use ({@link InForce}) left out.
 *
 * <p>The two searches overlap: the vector scan is started on helper threads, and while it runs this thread does the
 * lexical side (the BM25 search, reading its hits, the linked and the pinned memories from the store, and gathering
 * their vectors); then it finishes the scan and reads the vector hits not read by then. A memory found both ways
 * takes the scan's exact cosine, so it scores the same whichever way it was found. Thread-safe.
 */
public final class CandidateGatherer {
    private final MemoryStore store;
    private final NamespaceIndexes indexes;
    private final int candidateLimit;
    private final int scanThreads;

    public CandidateGatherer(MemoryStore store, NamespaceIndexes indexes, int candidateLimit, int scanThreads) {
        this.store = store;
        this.indexes = indexes;
        this.candidateLimit = candidateLimit;
        this.scanThreads = scanThreads;
    }

    /**
     * Fills the workspace's candidate set with the turn's candidates.
     *
     * @param linkedIds the memories the fired triggers link to, in trigger order
     * @param pinnedIds the namespace's pinned memories (none for a search)
     * @return where the candidates came from, for memories that join later
     */
    public CandidateSources gather(Turn turn, QueryVectors q, Set<String> linkedIds, Set<String> pinnedIds,
            TurnWorkspace work) {
        String namespace = turn.namespace();
        VectorIndex index = indexes.indexFor(namespace);
        CandidateSet out = work.candidates();
        out.reset(index == null ? 0 : index.dimension());
        IdList lexicalIds = work.lexicalIds();
        lexicalIds.clear();
        linkedIds.forEach(lexicalIds::addIfAbsent);
        pinnedIds.forEach(lexicalIds::addIfAbsent);
        List<LexicalHit> lexical;
        Hits hits;
        if (index == null) {
            lexical = readLexicalSide(turn, q, lexicalIds, linkedIds, null, out);
            hits = Hits.EMPTY;
        } else {
            try (VectorSearch scan = index.start(q.query(), candidateLimit, scanThreads)) {
                lexical = readLexicalSide(turn, q, lexicalIds, linkedIds, index, out);
                hits = scan.finish();
            }
        }
        CandidateSources sources = new CandidateSources(index, hits, lexical, linkedIds);
        readVectorHits(turn, q, sources, lexicalIds, out);
        return sources;
    }

    /** The BM25 search and the memories it found, the linked and the pinned ones: the first candidates. */
    private List<LexicalHit> readLexicalSide(Turn turn, QueryVectors q, IdList lexicalIds, Set<String> linkedIds,
            VectorIndex index, CandidateSet out) {
        List<LexicalHit> lexical = store.searchLexical(turn.namespace(), turn.searchText(), candidateLimit);
        for (LexicalHit hit : lexical) {
            lexicalIds.addIfAbsent(hit.memoryId());
        }
        InForce inForce = turn.inForce();
        for (StoredMemory s : store.getAll(turn.namespace(), lexicalIds)) {
            if (inForce.admits(s.memory())) {
                out.add(s, Float.NaN, 0.0, linkedIds.contains(s.memory().id()), -1);
            }
        }
        for (LexicalHit hit : lexical) {
            int i = out.indexOf(hit.memoryId());
            if (i >= 0) {
                out.setBm25(i, hit.score());
            }
        }
        if (index != null) {
            out.gatherRows(index, 0, q.query());
        }
        return lexical;
    }

    /** Sets the scan's cosines on the candidates found both ways, and adds the vector hits not read yet. */
    private void readVectorHits(Turn turn, QueryVectors q, CandidateSources sources, IdList lexicalIds,
            CandidateSet out) {
        Hits hits = sources.hits();
        List<String> rest = new ArrayList<>(hits.size());
        for (int h = 0; h < hits.size(); h++) {
            String id = hits.ids()[h];
            int i = out.indexOf(id);
            if (i >= 0) {
                out.setCosine(i, hits.scores()[h]);
            }
            if (!lexicalIds.contains(id)) {
                rest.add(id);
            }
        }
        if (rest.isEmpty()) {
            return;
        }
        out.join(store.getAll(turn.namespace(), rest), sources, turn.inForce(), q.query());
    }
}
