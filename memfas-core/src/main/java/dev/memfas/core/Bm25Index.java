package dev.memfas.core;

import dev.memfas.core.vector.TopScores;
import dev.memfas.LexicalHit;
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
final class Bm25Index {
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

    Bm25Index() {
        this(PartitionedScores.DEFAULT_RANGE_BITS);
    }

    /** An index summing scores per range of {@code 2^rangeBits} documents once it holds more than four ranges. */
    Bm25Index(int rangeBits) {
        if (rangeBits < 1 || rangeBits > 24) {
            throw new IllegalArgumentException("range bits must be in [1, 24]: " + rangeBits);
        }
        this.rangeBits = rangeBits;
    }

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
            postings.computeIfAbsent(distinct[t], k -> new Postings()).add(doc, freqs[t], terms.size());
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
    List<LexicalHit> search(String query, int limit) {
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
        ScoreTables tables = takeTables();
        DocScores scores = tables.forSearch(rangeBits, docCount, totalPostings);
        try {
            return search(matched, limit, scores, tables);
        } finally {
            scores.clear();
            releaseTables(tables);
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

    private List<LexicalHit> search(List<Postings> matched, int limit, DocScores scores, ScoreTables tables) {
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

    /** One query's scores by document number. */
    private interface DocScores {
        void add(int doc, float score);

        /**
         * The best {@code limit} documents with a positive score, in {@code top} (emptied first), or null if there are
         * none.
         */
        TopScores best(int limit, TopScores top);

        /** Empties the table for the next query, touching only what this one wrote. */
        void clear();
    }

    /** How many searches at once keep their score tables for the next. */
    private static final int POOLED_TABLES = 4;
    private final java.util.concurrent.atomic.AtomicReferenceArray<ScoreTables> tables =
            new java.util.concurrent.atomic.AtomicReferenceArray<>(POOLED_TABLES);

    private ScoreTables takeTables() {
        for (int i = 0; i < POOLED_TABLES; i++) {
            ScoreTables t = tables.get(i);
            if (t != null && tables.compareAndSet(i, t, null)) {
                return t;
            }
        }
        return new ScoreTables();
    }

    private void releaseTables(ScoreTables t) {
        for (int i = 0; i < POOLED_TABLES; i++) {
            if (tables.get(i) == null && tables.compareAndSet(i, null, t)) {
                return;
            }
        }
    }

    /**
     * The score tables of one search, kept for the next: allocated afresh, a search over 100K documents allocated a
     * few hundred kilobytes of tables, more than the rest of a turn together. Each kind is made on first need.
     */
    private static final class ScoreTables {
        final TopScores top = new TopScores(1);
        private DenseScores dense;
        private SparseScores sparse;
        private PartitionedScores partitioned;

        /**
         * The table for a search: few postings against many documents (the usual query) sum in a small hash table that
         * stays in the cache, instead of a score per document scattered over; over more than four ranges of documents
         * (a table too big for the cache), and postings enough to matter, scores are summed range by range.
         */
        DocScores forSearch(int rangeBits, int docCount, long totalPostings) {
            int range = 1 << rangeBits;
            if (docCount > 4L * range && totalPostings > range / 4) {
                if (partitioned == null || !partitioned.fits(rangeBits, docCount)) {
                    partitioned = new PartitionedScores(rangeBits, docCount, totalPostings);
                }
                return partitioned;
            }
            if (4 * totalPostings < docCount) {
                if (sparse == null) {
                    sparse = new SparseScores();
                }
                sparse.prepare((int) totalPostings);
                return sparse;
            }
            if (dense == null || !dense.fits(docCount)) {
                dense = new DenseScores(docCount);
            }
            return dense;
        }
    }

    /** A score per document, and the documents touched. */
    private static final class DenseScores implements DocScores {
        private final float[] scores;
        private int[] touched;
        private int touchedCount;

        DenseScores(int docCount) {
            // Room to grow, so that a growing index does not make a new table every few searches.
            scores = new float[docCount + docCount / 4 + 16];
            touched = new int[Math.min(docCount, 1024)];
        }

        boolean fits(int docCount) {
            return docCount <= scores.length;
        }

        @Override
        public void clear() {
            for (int i = 0; i < touchedCount; i++) {
                scores[touched[i]] = 0f;
            }
            touchedCount = 0;
        }

        @Override
        public void add(int doc, float score) {
            if (scores[doc] == 0f) {
                if (touchedCount == touched.length) {
                    touched = Arrays.copyOf(touched, Math.min(scores.length, Math.max(16, touchedCount * 2)));
                }
                touched[touchedCount++] = doc;
            }
            scores[doc] += score;
        }

        @Override
        public TopScores best(int limit, TopScores reused) {
            if (touchedCount == 0) {
                return null;
            }
            TopScores top = reused;
            top.reset(Math.min(limit, touchedCount));
            for (int i = 0; i < touchedCount; i++) {
                int doc = touched[i];
                if (scores[doc] > 0f) {
                    top.offer(doc, scores[doc]);
                }
            }
            return top;
        }
    }

    /**
     * Open addressing with linear probing, sized for every posting to be a different document. Each slot is two ints,
     * the document number plus one (so a new table is empty as allocated) and the score's bits, so that adding touches
     * one cache line. The slots in use are listed in insertion order: taking the best visits those and not the whole
     * table, whose empty slots would be a branch the CPU cannot predict.
     */
    private static final class SparseScores implements DocScores {
        private int[] table = new int[0];
        private int[] used = new int[0];
        private int mask;
        private int shift;
        private int size;

        /** Readies the table for up to {@code maxDocs} documents; the table must be empty. */
        void prepare(int maxDocs) {
            // A power of two at least twice the documents: probes stay short.
            int capacity = Integer.highestOneBit(Math.max(8, maxDocs) * 2 - 1) << 1;
            if (table.length < 2 * capacity) {
                table = new int[2 * capacity];
            }
            if (used.length < maxDocs) {
                used = new int[maxDocs];
            }
            mask = capacity - 1;
            shift = Integer.numberOfLeadingZeros(mask);
        }

        @Override
        public void clear() {
            for (int u = 0; u < size; u++) {
                int i = used[u];
                table[2 * i] = 0;
                table[2 * i + 1] = 0;
            }
            size = 0;
        }

        @Override
        public void add(int doc, float score) {
            int key = doc + 1;
            // Fibonacci hashing: the top bits of the product, so that nearby document numbers spread out.
            int i = (key * 0x9E3779B9) >>> shift;
            while (table[2 * i] != key) {
                if (table[2 * i] == 0) {
                    table[2 * i] = key;
                    used[size++] = i;
                    break;
                }
                i = (i + 1) & mask;
            }
            table[2 * i + 1] = Float.floatToRawIntBits(Float.intBitsToFloat(table[2 * i + 1]) + score);
        }

        @Override
        public TopScores best(int limit, TopScores reused) {
            if (size == 0) {
                return null;
            }
            TopScores top = reused;
            top.reset(Math.min(limit, size));
            for (int u = 0; u < size; u++) {
                int i = used[u];
                float score = Float.intBitsToFloat(table[2 * i + 1]);
                if (score > 0f) {
                    top.offer(table[2 * i] - 1, score);
                }
            }
            return top;
        }
    }

    /**
     * For many documents and many postings: the postings' scores are first appended to one run per range of document
     * numbers, and then each run is summed into one score per document of its range, which stays in the processor's
     * second-level cache (256 KB for the default 65,536 documents). A hash table or a score per document over a million
     * documents is megabytes, and every posting would wait on memory: over 1M synthetic documents, 18-word queries took
     * 1.0–1.1 ms with the hash table and 0.7–0.8 ms so. A document's scores are added in the order they came, as in the
     * other tables.
     */
    private static final class PartitionedScores implements DocScores {
        static final int DEFAULT_RANGE_BITS = 16;

        private final int rangeBits;
        private final int[][] docs;
        private final float[][] scores;
        private final int[] sizes;
        private final int docCount;
        private final float[] sums;
        private final int[] touched;

        PartitionedScores(int rangeBits, int docCount, long totalPostings) {
            this.rangeBits = rangeBits;
            this.docCount = docCount;
            int ranges = (int) ((docCount + (1L << rangeBits) - 1) >>> rangeBits);
            // Documents spread over the ranges about evenly; a quarter more than the average, so few runs grow.
            int capacity = (int) Math.min(Integer.MAX_VALUE - 8, totalPostings / ranges * 5 / 4 + 64);
            docs = new int[ranges][capacity];
            scores = new float[ranges][capacity];
            sizes = new int[ranges];
            sums = new float[Math.min(1 << rangeBits, docCount)];
            touched = new int[sums.length];
        }

        /** Whether this table serves an index of {@code docCount} documents: the same ranges. */
        boolean fits(int rangeBits, int docCount) {
            return this.rangeBits == rangeBits && this.docCount == docCount;
        }

        @Override
        public void clear() {
            Arrays.fill(sizes, 0);
        }

        @Override
        public void add(int doc, float score) {
            int r = doc >>> rangeBits;
            int n = sizes[r];
            if (n == docs[r].length) {
                int grown = (int) Math.min(Integer.MAX_VALUE - 8, n + (n >> 1) + 16L);
                docs[r] = Arrays.copyOf(docs[r], grown);
                scores[r] = Arrays.copyOf(scores[r], grown);
            }
            docs[r][n] = doc;
            scores[r][n] = score;
            sizes[r] = n + 1;
        }

        @Override
        public TopScores best(int limit, TopScores reused) {
            TopScores top = null;
            for (int r = 0; r < sizes.length; r++) {
                int base = r << rangeBits;
                int count = 0;
                int[] rangeDocs = docs[r];
                float[] rangeScores = scores[r];
                for (int i = 0; i < sizes[r]; i++) {
                    int local = rangeDocs[i] - base;
                    if (sums[local] == 0f) {
                        touched[count++] = local;
                    }
                    sums[local] += rangeScores[i];
                }
                for (int i = 0; i < count; i++) {
                    int local = touched[i];
                    if (sums[local] > 0f) {
                        if (top == null) {
                            top = reused;
                            top.reset(limit);
                        }
                        top.offer(base + local, sums[local]);
                    }
                    sums[local] = 0f;
                }
            }
            return top;
        }
    }
}
