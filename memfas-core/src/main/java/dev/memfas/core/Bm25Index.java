package dev.memfas.core;

import dev.memfas.LexicalHit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * An in-memory inverted index ranking documents with Okapi BM25 (k1 = 1.2, b = 0.75).
 *
 * <p>Everything a search touches is primitive: documents are numbered, each term's postings are parallel
 * {@code int[]}s of document numbers and term frequencies, and a search adds into one {@code float[]} of scores and
 * keeps the best in a primitive heap. A removed document is marked dead and skipped; its postings stay until the dead
 * outnumber the live, when the index is rebuilt without them.
 *
 * <p>Not thread-safe for writes: the owning store guards it (searches may run in parallel with each other).
 */
final class Bm25Index {
    private static final float K1 = 1.2f;
    private static final float B = 0.75f;
    /** Below this many dead documents the index is never rebuilt: their postings cost less than a rebuild. */
    private static final int MIN_DEAD_TO_COMPACT = 1024;

    /** Postings of one term: the first {@code size} entries of two parallel arrays, in document order. */
    private static final class Postings {
        int[] docs = new int[2];
        int[] freqs = new int[2];
        int size;
        /** Live documents containing the term. */
        int liveDocs;

        void add(int doc, int freq) {
            if (size == docs.length) {
                int grown = size + (size >> 1) + 1;
                docs = Arrays.copyOf(docs, grown);
                freqs = Arrays.copyOf(freqs, grown);
            }
            docs[size] = doc;
            freqs[size] = freq;
            size++;
            liveDocs++;
        }
    }

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

    void put(String docId, String text) {
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
            postings.computeIfAbsent(distinct[t], k -> new Postings()).add(doc, freqs[t]);
        }
        docById.put(docId, doc);
        live++;
        totalLength += terms.size();
    }

    void remove(String docId) {
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
                postings.computeIfAbsent(docTerms[next][t], k -> new Postings()).add(next, docFreqs[next][t]);
            }
            next++;
        }
        Arrays.fill(ids, next, docCount, null);
        Arrays.fill(docTerms, next, docCount, null);
        Arrays.fill(docFreqs, next, docCount, null);
        docCount = next;
    }

    /** The best {@code limit} documents for the query, best first; equal scores by id. */
    List<LexicalHit> search(String query, int limit) {
        if (live == 0) {
            return List.of();
        }
        float avgLength = (float) Math.max(1.0, (double) totalLength / live);
        // Without dead documents the check is skipped: at 100K documents it is a cache miss per posting.
        boolean anyDead = live < docCount;
        float[] scores = null;
        int[] touched = null;
        int touchedCount = 0;
        for (String term : new LinkedHashSet<>(TextAnalyzer.terms(query))) {
            Postings p = postings.get(term);
            if (p == null || p.liveDocs == 0) {
                continue;
            }
            if (scores == null) {
                scores = new float[docCount];
                touched = new int[Math.min(docCount, 1024)];
            }
            double df = p.liveDocs;
            float idf = (float) Math.log(1.0 + (live - df + 0.5) / (df + 0.5));
            float idfK1 = idf * (K1 + 1);
            // BM25's length norm k1 * (1 - b + b * length / avgLength), split into its constant and per-length parts.
            float constantPart = K1 * (1 - B);
            float lengthPart = K1 * B / avgLength;
            for (int i = 0; i < p.size; i++) {
                int doc = p.docs[i];
                if (anyDead && ids[doc] == null) {
                    continue;
                }
                float tf = p.freqs[i];
                if (scores[doc] == 0f) {
                    if (touchedCount == touched.length) {
                        touched = Arrays.copyOf(touched, Math.min(docCount, touchedCount * 2));
                    }
                    touched[touchedCount++] = doc;
                }
                scores[doc] += idfK1 * tf / (tf + constantPart + lengthPart * lengths[doc]);
            }
        }
        if (touchedCount == 0) {
            return List.of();
        }
        TopScores top = new TopScores(Math.min(limit, touchedCount));
        for (int i = 0; i < touchedCount; i++) {
            int doc = touched[i];
            if (scores[doc] > 0f) {
                top.offer(doc, scores[doc]);
            }
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
