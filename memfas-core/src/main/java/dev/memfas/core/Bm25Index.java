package dev.memfas.core;

import dev.memfas.LexicalHit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * An in-memory inverted index ranking documents with Okapi BM25 (k1 = 1.2, b = 0.75).
 *
 * <p>Not thread-safe: the owning store guards it.
 */
final class Bm25Index {
    private static final double K1 = 1.2;
    private static final double B = 0.75;

    private final Map<String, Map<String, Integer>> postings = new HashMap<>();
    private final Map<String, String[]> docTerms = new HashMap<>();
    private final Map<String, Integer> docLengths = new HashMap<>();
    private long totalLength;

    void put(String docId, String text) {
        remove(docId);
        List<String> terms = TextAnalyzer.terms(text);
        Map<String, Integer> tf = new HashMap<>();
        for (String t : terms) {
            tf.merge(t, 1, Integer::sum);
        }
        for (Map.Entry<String, Integer> e : tf.entrySet()) {
            postings.computeIfAbsent(e.getKey(), k -> new HashMap<>()).put(docId, e.getValue());
        }
        docTerms.put(docId, tf.keySet().toArray(new String[0]));
        docLengths.put(docId, terms.size());
        totalLength += terms.size();
    }

    void remove(String docId) {
        String[] terms = docTerms.remove(docId);
        if (terms == null) {
            return;
        }
        for (String t : terms) {
            Map<String, Integer> p = postings.get(t);
            if (p != null) {
                p.remove(docId);
                if (p.isEmpty()) {
                    postings.remove(t);
                }
            }
        }
        totalLength -= docLengths.remove(docId);
    }

    List<LexicalHit> search(String query, int limit) {
        int n = docTerms.size();
        if (n == 0) {
            return List.of();
        }
        double avgLength = Math.max(1.0, (double) totalLength / n);
        Map<String, Double> scores = new HashMap<>();
        for (String term : new LinkedHashSet<>(TextAnalyzer.terms(query))) {
            Map<String, Integer> p = postings.get(term);
            if (p == null) {
                continue;
            }
            double df = p.size();
            double idf = Math.log(1.0 + (n - df + 0.5) / (df + 0.5));
            for (Map.Entry<String, Integer> e : p.entrySet()) {
                double tf = e.getValue();
                double length = docLengths.get(e.getKey());
                double s = idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / avgLength));
                scores.merge(e.getKey(), s, Double::sum);
            }
        }
        List<LexicalHit> hits = new ArrayList<>(scores.size());
        scores.forEach((id, s) -> {
            if (s > 0) {
                hits.add(new LexicalHit(id, s));
            }
        });
        hits.sort((a, b) -> {
            int c = Double.compare(b.score(), a.score());
            return c != 0 ? c : a.memoryId().compareTo(b.memoryId());
        });
        return hits.size() > limit ? List.copyOf(hits.subList(0, limit)) : hits;
    }
}
