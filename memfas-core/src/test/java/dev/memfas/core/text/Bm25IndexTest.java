package dev.memfas.core.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.spi.LexicalHit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The primitive BM25 index against a straightforward BM25 over maps, through puts, replacements and removals. */
final class Bm25IndexTest {

    @ParameterizedTest(name = "ranges of 2^{0} documents")
    // 16: the default, where 3,000 documents are one hash table or one score per document; 4: scores summed per range
    // of 16 documents, as over a million documents by default.
    @ValueSource(ints = {16, 4})
    void search_matchesTheTextbookFormula_throughReplacementsAndRemovalsAndCompaction(int rangeBits) {
        Random random = new Random(17);
        String[] words = words();
        Bm25Index index = new Bm25Index(rangeBits);
        Map<String, String> texts = new HashMap<>();
        for (int round = 0; round < 6000; round++) {
            String id = "d" + random.nextInt(3000);
            if (random.nextInt(4) == 0) {
                index.remove(id);
                texts.remove(id);
            } else {
                String text = sentence(random, words);
                index.put(id, text);
                texts.put(id, text);
            }
            if (round % 500 == 499) {
                for (int q = 0; q < 5; q++) {
                    String query = sentence(random, words);
                    assertSameHits(index.search(query, 25), reference(texts, query, 25), query);
                }
            }
        }
        // Enough removals that the dead outnumber the live: the index has been rebuilt and must still agree.
        for (String id : new ArrayList<>(texts.keySet())) {
            if (random.nextInt(10) != 0) {
                index.remove(id);
                texts.remove(id);
            }
        }
        for (int q = 0; q < 20; q++) {
            String query = sentence(random, words);
            assertSameHits(index.search(query, 10), reference(texts, query, 10), query);
        }
    }

    @ParameterizedTest(name = "ranges of 2^{0} documents")
    @ValueSource(ints = {16, 4})
    void search_matchesTheTextbookFormula_forRareAndCommonTerms(int rangeBits) {
        // Rare terms have a few postings among thousands of documents (scores kept in a small hash table); common ones
        // have more postings than a quarter of the documents (a score per document). Both must give the same hits, as
        // must scores summed range by range.
        Random random = new Random(23);
        String[] words = words();
        Bm25Index index = new Bm25Index(rangeBits);
        Map<String, String> texts = new HashMap<>();
        for (int d = 0; d < 3000; d++) {
            String text = sentence(random, words);
            index.put("d" + d, text);
            texts.put("d" + d, text);
        }
        for (int q = 0; q < 20; q++) {
            String rare = words[words.length - 1 - random.nextInt(60)] + " " + words[words.length - 1 - random.nextInt(60)];
            String common = words[random.nextInt(3)] + " " + words[random.nextInt(3)] + " " + words[random.nextInt(3)];
            for (String query : List.of(rare, common)) {
                assertSameHits(index.search(query, 25), reference(texts, query, 25), query);
            }
        }
    }

    @Test
    void search_onEmptyOrUnknownTerms_findsNothing() {
        Bm25Index index = new Bm25Index();
        assertThat(index.search("anything", 5)).isEmpty();
        index.put("a", "apples and pears");
        assertThat(index.search("bananas", 5)).isEmpty();
        index.remove("a");
        assertThat(index.search("apples", 5)).isEmpty();
    }

    @Test
    void rangeBits_outOfRange_throwNamingTheValue() {
        assertThatThrownBy(() -> new Bm25Index(0))
                .hasMessage("range bits must be in [1, 24]: 0");
    }

    @Test
    void search_breaksEqualScoresById() {
        Bm25Index index = new Bm25Index();
        index.put("c", "the blue kettle");
        index.put("a", "the blue kettle");
        index.put("b", "the blue kettle");

        assertThat(index.search("kettle", 3)).extracting(LexicalHit::memoryId).containsExactly("a", "b", "c");
    }

    private static void assertSameHits(List<LexicalHit> actual, List<LexicalHit> expected, String query) {
        assertThat(actual).as(query).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            assertThat(actual.get(i).score()).as("%s, hit %d", query, i)
                    .isCloseTo(expected.get(i).score(), Offset.offset(1e-4));
        }
        // Ids may differ only where scores tie within float rounding.
        for (int i = 0; i < expected.size(); i++) {
            if (!actual.get(i).memoryId().equals(expected.get(i).memoryId())) {
                assertThat(Math.abs(actual.get(i).score() - expected.get(i).score())).isLessThan(1e-4);
            }
        }
    }

    /** BM25 as written in the textbook, over maps. */
    private static List<LexicalHit> reference(Map<String, String> texts, String query, int limit) {
        Map<String, List<String>> terms = new HashMap<>();
        long total = 0;
        for (Map.Entry<String, String> e : texts.entrySet()) {
            List<String> t = TextAnalyzer.terms(e.getValue());
            terms.put(e.getKey(), t);
            total += t.size();
        }
        int n = texts.size();
        double avg = Math.max(1.0, (double) total / Math.max(1, n));
        Map<String, Double> scores = new HashMap<>();
        for (String q : new LinkedHashSet<>(TextAnalyzer.terms(query))) {
            long df = terms.values().stream().filter(t -> t.contains(q)).count();
            if (df == 0) {
                continue;
            }
            double idf = Math.log(1.0 + (n - df + 0.5) / (df + 0.5));
            for (Map.Entry<String, List<String>> e : terms.entrySet()) {
                long tf = e.getValue().stream().filter(q::equals).count();
                if (tf > 0) {
                    double s = idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * e.getValue().size() / avg));
                    scores.merge(e.getKey(), s, Double::sum);
                }
            }
        }
        List<LexicalHit> hits = new ArrayList<>();
        scores.forEach((id, s) -> hits.add(new LexicalHit(id, s)));
        hits.sort((a, b) -> {
            int c = Double.compare(b.score(), a.score());
            return c != 0 ? c : a.memoryId().compareTo(b.memoryId());
        });
        return hits.subList(0, Math.min(limit, hits.size()));
    }

    /** 300 distinct words, none a stop word or changed by stemming. */
    private static String[] words() {
        String[] words = new String[300];
        for (int w = 0; w < words.length; w++) {
            words[w] = "w" + Integer.toString(w, 36) + "x";
        }
        return words;
    }

    private static String sentence(Random random, String[] words) {
        StringBuilder sb = new StringBuilder();
        int length = 3 + random.nextInt(15);
        for (int k = 0; k < length; k++) {
            sb.append(' ').append(words[(int) (words.length * Math.pow(random.nextDouble(), 2))]);
        }
        return sb.toString();
    }
}
