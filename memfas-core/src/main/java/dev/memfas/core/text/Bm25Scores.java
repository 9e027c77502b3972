package dev.memfas.core.text;

import dev.memfas.core.vector.TopScores;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Where a BM25 search sums its scores by document number, in one of three tables chosen by the query's postings and
 * the index's size, and the pool that keeps them from one search to the next. Not thread-safe but for {@link Pool}.
 */
final class Bm25Scores {
    /** Scores are summed per range of {@code 2^16} document numbers once an index holds more than four ranges. */
    static final int DEFAULT_RANGE_BITS = 16;

    private Bm25Scores() {}

    /** One query's scores by document number. */
    interface DocScores {
        void add(int doc, float score);

        /**
         * The best {@code limit} documents with a positive score, in {@code top} (emptied first), or null if there are
         * none.
         */
        TopScores best(int limit, TopScores top);

        /** Empties the table for the next query, touching only what this one wrote. */
        void clear();
    }

    /** An index's tables not in use: kept for the next searches. Thread-safe. */
    public static final class Pool {
        /** How many searches at once keep their score tables for the next. */
        private static final int POOLED = 4;
        private final AtomicReferenceArray<Tables> kept = new AtomicReferenceArray<>(POOLED);

        public Tables take() {
            for (int i = 0; i < POOLED; i++) {
                Tables t = kept.get(i);
                if (t != null && kept.compareAndSet(i, t, null)) {
                    return t;
                }
            }
            return new Tables();
        }

        public void release(Tables t) {
            for (int i = 0; i < POOLED; i++) {
                if (kept.get(i) == null && kept.compareAndSet(i, null, t)) {
                    return;
                }
            }
        }
    }

    /**
     * The score tables of one search, kept for the next: allocated afresh, a search over 100K documents allocated a
     * few hundred kilobytes of tables, more than the rest of a turn together. Each kind is made on first need.
     */
    static final class Tables {
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
