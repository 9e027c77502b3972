package dev.memfas.core.text;

import dev.memfas.spi.LexicalHit;
import dev.memfas.core.vector.TopScores;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An in-memory inverted index ranking documents with Okapi BM25 (k1 = 1.2, b = 0.75).
 *
 * <p>Everything a search touches is primitive: documents are numbered, each term's postings are parallel
 * {@code int[]}s of document numbers, term frequencies and document lengths, and a search sums scores per document
 * (in a small hash table, one score per document, or range by range over many documents) and keeps the best in a
 * primitive buffer ({@link TopScores}). A removed document is marked dead and skipped; its postings stay until the
 * dead outnumber the live, when the index is rebuilt without them.
 *
 * <p>Not thread-safe for writes: the owning store guards it (searches may run in parallel with each other).
 */
public final class Bm25Index {
    private static final float K1 = 1.2f;
    private static final float B = 0.75f;
    /** Below this many dead documents the index is never rebuilt: their postings cost less than a rebuild. */
    private static final int MIN_DEAD_TO_COMPACT = 1024;

    /**
     * Postings of one term: the first {@code size} entries of parallel arrays, in document order. Each posting carries
     * its document's length, so a search reads the postings in order instead of looking lengths up at random.
     */
    private static final class Postings {
        int[] docs = new int[2];
        int[] freqs = new int[2];
        int[] lengths = new int[2];
        int size;
        /** Live documents containing the term. */
        int liveDocs;

        void add(int doc, int freq, int length) {
            if (size == docs.length) {
                int grown = size + (size >> 1) + 1;
                docs = Arrays.copyOf(docs, grown);
                freqs = Arrays.copyOf(freqs, grown);
                lengths = Arrays.copyOf(lengths, grown);
            }
            docs[size] = doc;
            freqs[size] = freq;
            lengths[size] = length;
            size++;
            liveDocs++;
        }
    }

    /** Scores are summed per range of {@code 2^rangeBits} document numbers once there are many documents. */
    private final int rangeBits;
    private final Bm25Scores.Pool scoreTables = new Bm25Scores.Pool();
    private final Map<String, Postings> postings = new HashMap<>();
    private final Map<String, Integer> docById = new HashMap<>();
    /** By document number: the id (null once removed), length in terms, distinct terms and their frequencies. */
    private String[] ids = new String[16];
    private int[] lengths = new int[16];
    private String[][] docTerms = new String[16][];
    private int[][] docFreqs = new int[16][];
    private int docCount;
    private int live;
    private long totalLength;

    public Bm25Index() {
        this(Bm25Scores.DEFAULT_RANGE_BITS);
    }

    /** An index summing scores per range of {@code 2^rangeBits} documents once it holds more than four ranges. */
    public Bm25Index(int rangeBits) {
        if (rangeBits < 1 || rangeBits > 24) {
            throw new IllegalArgumentException("range bits must be in [1, 24]: " + rangeBits);
        }
        this.rangeBits = rangeBits;
    }

    public void put(String docId, String text) {
        remove(docId);
        List<String> terms = TextAnalyzer.terms(text);
        Map<String, int[]> tf = new HashMap<>();
        for (String t : terms) {
            tf.computeIfAbsent(t, k -> new int[1])[0]++;
        }
        String[] distinct = new String[tf.size()];
        int[] freqs = new int[tf.size()];
        int i = 0;
        for (Map.Entry<String, int[]> e : tf.entrySet()) {
            distinct[i] = e.getKey();
            freqs[i] = e.getValue()[0];
            i++;
        }
        int doc = docCount++;
        if (doc == ids.length) {
            int grown = doc + (doc >> 1);
            ids = Arrays.copyOf(ids, grown);
            lengths = Arrays.copyOf(lengths, grown);
            docTerms = Arrays.copyOf(docTerms, grown);
            docFreqs = Arrays.copyOf(docFreqs, grown);
        }
        ids[doc] = docId;
        lengths[doc] = terms.size();
        docTerms[doc] = distinct;
        docFreqs[doc] = freqs;
        for (int t = 0; t < distinct.length; t++) {
            postings.computeIfAbsent(distinct[t], k -> new Postings()).add(doc, freqs[t], terms.size());
        }
        docById.put(docId, doc);
        live++;
        totalLength += terms.size();
    }

    public void remove(String docId) {
        Integer doc = docById.remove(docId);
        if (doc == null) {
            return;
        }
        for (String t : docTerms[doc]) {
            postings.get(t).liveDocs--;
        }
        ids[doc] = null;
        docTerms[doc] = null;
        docFreqs[doc] = null;
        live--;
        totalLength -= lengths[doc];
        int dead = docCount - live;
        if (dead >= MIN_DEAD_TO_COMPACT && dead > live) {
            compact();
        }
    }

    /** Renumbers the live documents densely, in their order, and rebuilds the postings without the dead. */
    private void compact() {
        postings.clear();
        int next = 0;
        for (int doc = 0; doc < docCount; doc++) {
            if (ids[doc] == null) {
                continue;
            }
            ids[next] = ids[doc];
            lengths[next] = lengths[doc];
            docTerms[next] = docTerms[doc];
            docFreqs[next] = docFreqs[doc];
            docById.put(ids[next], next);
            for (int t = 0; t < docTerms[next].length; t++) {
                postings.computeIfAbsent(docTerms[next][t], k -> new Postings())
                        .add(next, docFreqs[next][t], lengths[next]);
            }
            next++;
        }
        Arrays.fill(ids, next, docCount, null);
        Arrays.fill(docTerms, next, docCount, null);
        Arrays.fill(docFreqs, next, docCount, null);
        docCount = next;
    }

    /** The best {@code limit} documents for the query, best first; equal scores by id. */
    public List<LexicalHit> search(String query, int limit) {
        if (live == 0) {
            return List.of();
        }
        List<Postings> matched = new ArrayList<>();
        long totalPostings = 0;
        for (String term : TextAnalyzer.terms(query)) {
            Postings p = postings.get(term);
            // A repeated term counts once: the postings are few, and a query has a few dozen terms at most.
            if (p != null && p.liveDocs > 0 && !containsSame(matched, p)) {
                matched.add(p);
                totalPostings += p.size;
            }
        }
        if (matched.isEmpty()) {
            return List.of();
        }
        Bm25Scores.Tables tables = scoreTables.take();
        Bm25Scores.DocScores scores = tables.forSearch(rangeBits, docCount, totalPostings);
        try {
            return search(matched, limit, scores, tables);
        } finally {
            scores.clear();
            scoreTables.release(tables);
        }
    }

    private static boolean containsSame(List<Postings> matched, Postings p) {
        for (Postings m : matched) {
            if (m == p) {
                return true;
            }
        }
        return false;
    }

    private List<LexicalHit> search(List<Postings> matched, int limit, Bm25Scores.DocScores scores,
            Bm25Scores.Tables tables) {
        float avgLength = (float) Math.max(1.0, (double) totalLength / live);
        // Without dead documents the check is skipped: at 100K documents it is a cache miss per posting.
        boolean anyDead = live < docCount;
        // BM25's length norm k1 * (1 - b + b * length / avgLength), split into its constant and per-length parts.
        float constantPart = K1 * (1 - B);
        float lengthPart = K1 * B / avgLength;
        for (Postings p : matched) {
            double df = p.liveDocs;
            float idf = (float) Math.log(1.0 + (live - df + 0.5) / (df + 0.5));
            float idfK1 = idf * (K1 + 1);
            for (int i = 0; i < p.size; i++) {
                int doc = p.docs[i];
                if (anyDead && ids[doc] == null) {
                    continue;
                }
                float tf = p.freqs[i];
                scores.add(doc, idfK1 * tf / (tf + constantPart + lengthPart * p.lengths[i]));
            }
        }
        TopScores top = scores.best(limit, tables.top);
        if (top == null) {
            return List.of();
        }
        int[] docs = new int[top.size()];
        float[] best = new float[top.size()];
        int m = top.drainDescending(docs, best);
        List<LexicalHit> hits = new ArrayList<>(m);
        for (int i = 0; i < m; i++) {
            hits.add(new LexicalHit(ids[docs[i]], best[i]));
        }
        hits.sort((a, b) -> {
            int c = Double.compare(b.score(), a.score());
            return c != 0 ? c : a.memoryId().compareTo(b.memoryId());
        });
        return hits;
    }
}
