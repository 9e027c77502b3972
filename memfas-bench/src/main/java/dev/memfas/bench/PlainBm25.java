package dev.memfas.bench;

import dev.memfas.internal.StopWords;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * BM25 as a developer would write it next to a vector store: lower-cased words of letters and digits, English stop
 * words dropped, no stemming, k1 = 1.2 and b = 0.75 (Lucene's defaults), Lucene's idf {@code ln(1 + (N - df + 0.5) /
 * (df + 0.5))}. The lexical half of the {@link RrfHybrid} peer.
 */
final class PlainBm25 {
    private static final double K1 = 1.2;
    private static final double B = 0.75;

    private final List<Map<String, Integer>> termCounts = new ArrayList<>();
    private final int[] lengths;
    private final Map<String, Integer> documentFrequency = new HashMap<>();
    private final double meanLength;

    PlainBm25(List<String> documents) {
        lengths = new int[documents.size()];
        long total = 0;
        for (int d = 0; d < documents.size(); d++) {
            Map<String, Integer> counts = new HashMap<>();
            List<String> words = words(documents.get(d));
            words.forEach(w -> counts.merge(w, 1, Integer::sum));
            counts.keySet().forEach(w -> documentFrequency.merge(w, 1, Integer::sum));
            termCounts.add(counts);
            lengths[d] = words.size();
            total += words.size();
        }
        meanLength = documents.isEmpty() ? 1 : Math.max(1, (double) total / documents.size());
    }

    /** The documents that share a word with the query, best first, as indexes into the constructor's list. */
    List<Integer> rank(String query) {
        List<String> terms = words(query).stream().distinct().toList();
        int n = lengths.length;
        double[] scores = new double[n];
        boolean[] matched = new boolean[n];
        for (String term : terms) {
            int df = documentFrequency.getOrDefault(term, 0);
            if (df == 0) {
                continue;
            }
            double idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
            for (int d = 0; d < n; d++) {
                Integer tf = termCounts.get(d).get(term);
                if (tf != null) {
                    scores[d] += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths[d] / meanLength));
                    matched[d] = true;
                }
            }
        }
        List<Integer> hits = new ArrayList<>();
        for (int d = 0; d < n; d++) {
            if (matched[d]) {
                hits.add(d);
            }
        }
        hits.sort((a, b) -> scores[a] != scores[b] ? Double.compare(scores[b], scores[a]) : Integer.compare(a, b));
        return hits;
    }

    private static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{Nd}]+")) {
            if (!w.isEmpty() && !StopWords.ENGLISH.contains(w)) {
                words.add(w);
            }
        }
        return words;
    }
}
