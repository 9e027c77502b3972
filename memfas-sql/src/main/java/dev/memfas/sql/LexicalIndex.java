package dev.memfas.sql;

import dev.memfas.spi.LexicalHit;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * One namespace's memories as terms ({@link Fts5Terms}), ranked as SQLite FTS5's {@code bm25()} ranks them, with the
 * namespace's own counts: for each query term, idf = ln((N − n + 0.5) / (n + 0.5)), at least 10⁻⁶, over the N
 * memories of the namespace and the n that hold the term; a memory scores the sum over the terms it holds of
 * idf · tf · (k1 + 1) / (tf + k1 · (1 − b + b · length / average length)), k1 = 1.2 and b = 0.75, its length counting
 * every term (stop words too). The sums run in the order FTS5's do, so a namespace alone in its store ranks exactly
 * as FTS5 ranked it.
 *
 * <p>A search reads only this namespace's postings, so it costs what the namespace holds. A removed memory leaves its
 * postings behind until they are a third of all, then the postings are rewritten. Searches run together; changes
 * wait for them.
 */
final class LexicalIndex {
    private static final double K1 = 1.2;
    private static final double B = 0.75;
    private static final double MIN_IDF = 1e-6;
    /**
     * Bytes a memory costs beyond its postings: its id's string and map entry, its length, its terms' array. With 16
     * per posting (8 of data, the rest the arrays' room to grow), 100,000 memories of 20 words measured 466 bytes of
     * heap each, where this estimate gives 481.
     */
    private static final int BYTES_PER_MEMORY = 160;
    /** Bytes a posting costs, with its term's entry in the memory's list of terms. */
    private static final int BYTES_PER_POSTING = 16;
    /** Bytes a term costs in the dictionary: its string, map entry and arrays. */
    private static final int BYTES_PER_TERM = 110;

    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, Integer> termIds = new HashMap<>();
    /** Per term: pairs of (slot, occurrences in that memory), in the order memories were added. */
    private int[][] postings = new int[64][];
    private int[] postingInts = new int[64];
    /** Per term: how many live memories hold it. */
    private int[] holders = new int[64];
    private int terms;

    private final Map<String, Integer> slotOf = new HashMap<>();
    /** Per slot: the memory's id, null once removed. */
    private String[] ids = new String[16];
    /** Per slot: the memory's length in terms. */
    private int[] lengths = new int[16];
    /** Per slot: the distinct terms of the memory (so that removing it can count them down). */
    private int[][] memoryTerms = new int[16][];
    private int slots;
    private int live;
    private long totalLength;
    private long livePostings;
    private long deadPostings;

    /** The change of the store's log this index has applied up to. */
    private volatile long upTo;

    LexicalIndex(long upTo) {
        this.upTo = upTo;
    }

    long upTo() {
        return upTo;
    }

    /** Roughly how many bytes of heap the index holds, for the memory limit. */
    long bytes() {
        lock.readLock().lock();
        try {
            return (long) slots * BYTES_PER_MEMORY + (long) terms * BYTES_PER_TERM
                    + (livePostings + deadPostings) * BYTES_PER_POSTING;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** How many memories it holds. */
    int size() {
        return live;
    }

    /** Adds or replaces a memory. */
    void put(String id, String text) {
        lock.writeLock().lock();
        try {
            removeLocked(id);
            addLocked(id, text);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Applies changes read from the store: each of {@code ids} is removed, then added again with its text if
     * {@code texts} has one (a memory deleted since has none); then marks the index current up to {@code upTo}.
     */
    void apply(Iterable<String> changed, Map<String, String> texts, long upTo) {
        lock.writeLock().lock();
        try {
            for (String id : changed) {
                removeLocked(id);
                String text = texts.get(id);
                if (text != null) {
                    addLocked(id, text);
                }
            }
            if (deadPostings > 1000 && deadPostings * 2 > livePostings) {
                compact();
            }
            this.upTo = Math.max(this.upTo, upTo);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * The best {@code limit} memories for the query's terms ({@link Fts5Terms#query}), best first, ties by id: every
     * memory that holds at least one of them.
     */
    List<LexicalHit> search(List<String> queryTerms, int limit) {
        lock.readLock().lock();
        try {
            if (live == 0) {
                return List.of();
            }
            double averageLength = (double) totalLength / (double) live;
            long postingsRead = 0;
            for (String term : queryTerms) {
                Integer t = termIds.get(term);
                postingsRead += t == null ? 0 : postingInts[t] / 2;
            }
            Scores scores = new Scores(slots, postingsRead);
            for (String term : queryTerms) {
                Integer t = termIds.get(term);
                if (t == null || holders[t] == 0) {
                    continue;
                }
                double idf = Math.log(((double) (live - holders[t]) + 0.5) / ((double) holders[t] + 0.5));
                if (idf <= 0.0) {
                    idf = MIN_IDF;
                }
                int[] p = postings[t];
                for (int i = 0, n = postingInts[t]; i < n; i += 2) {
                    int slot = p[i];
                    if (ids[slot] == null) {
                        continue;
                    }
                    double tf = p[i + 1];
                    double length = lengths[slot];
                    scores.add(slot, idf * ((tf * (K1 + 1.0)) / (tf + K1 * (1 - B + B * length / averageLength))));
                }
            }
            return best(scores, limit);
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * The sums of one search, by slot: in an array over every slot when the query's postings are many (a common word
     * in a large namespace), else in a small open-addressing table, so that a search allocates in proportion to what
     * it reads rather than to the namespace (writing searches for duplicates of every memory it stores).
     */
    private static final class Scores {
        private final double[] dense;
        private final int[] keys;
        private final double[] sums;
        private int[] touched;
        private int count;

        Scores(int slots, long postings) {
            if (postings * 4 >= slots) {
                dense = new double[slots];
                keys = null;
                sums = null;
                touched = new int[(int) Math.min(slots, Math.max(16, postings))];
            } else {
                int capacity = Integer.highestOneBit((int) Math.max(8, postings * 2)) << 1;
                dense = null;
                keys = new int[capacity];
                Arrays.fill(keys, -1);
                sums = new double[capacity];
                touched = new int[(int) Math.max(16, postings)];
            }
        }

        void add(int slot, double value) {
            if (dense != null) {
                if (dense[slot] == 0.0) {
                    touched[count++] = slot;
                }
                dense[slot] += value;
                return;
            }
            int mask = keys.length - 1;
            int at = (slot * 0x9E3779B9) >>> 1 & mask;
            while (keys[at] != slot) {
                if (keys[at] == -1) {
                    keys[at] = slot;
                    touched[count++] = slot;
                    break;
                }
                at = (at + 1) & mask;
            }
            sums[at] += value;
        }

        double of(int slot) {
            if (dense != null) {
                return dense[slot];
            }
            int mask = keys.length - 1;
            int at = (slot * 0x9E3779B9) >>> 1 & mask;
            while (keys[at] != slot) {
                at = (at + 1) & mask;
            }
            return sums[at];
        }
    }

    /** The best {@code limit} of the memories scored, best first: a heap of slots whose head is the worst kept. */
    private List<LexicalHit> best(Scores scores, int limit) {
        int count = scores.count;
        double[] score = new double[count];
        for (int i = 0; i < count; i++) {
            score[i] = scores.of(scores.touched[i]);
        }
        int[] slotAt = scores.touched;
        int[] heap = new int[Math.min(limit, count)];
        int size = 0;
        for (int i = 0; i < count; i++) {
            if (size < heap.length) {
                heap[size] = i;
                siftUp(heap, size++, score, slotAt);
            } else if (worse(heap[0], i, score, slotAt)) {
                heap[0] = i;
                siftDown(heap, size, score, slotAt);
            }
        }
        LexicalHit[] hits = new LexicalHit[size];
        while (size > 0) {
            int i = heap[0];
            hits[--size] = new LexicalHit(ids[slotAt[i]], score[i]);
            heap[0] = heap[size];
            siftDown(heap, size, score, slotAt);
        }
        return List.of(hits);
    }

    /** Whether hit {@code a} ranks below hit {@code b}: a lower score, or the same and a greater id. */
    private boolean worse(int a, int b, double[] score, int[] slotAt) {
        int byScore = Double.compare(score[a], score[b]);
        return byScore != 0 ? byScore < 0 : ids[slotAt[a]].compareTo(ids[slotAt[b]]) > 0;
    }

    private void siftUp(int[] heap, int at, double[] score, int[] slotAt) {
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (!worse(heap[at], heap[parent], score, slotAt)) {
                return;
            }
            int t = heap[at];
            heap[at] = heap[parent];
            heap[parent] = t;
            at = parent;
        }
    }

    private void siftDown(int[] heap, int size, double[] score, int[] slotAt) {
        int at = 0;
        while (true) {
            int worst = at;
            for (int child = 2 * at + 1; child <= 2 * at + 2 && child < size; child++) {
                if (worse(heap[child], heap[worst], score, slotAt)) {
                    worst = child;
                }
            }
            if (worst == at) {
                return;
            }
            int t = heap[at];
            heap[at] = heap[worst];
            heap[worst] = t;
            at = worst;
        }
    }

    private void addLocked(String id, String text) {
        Map<String, int[]> counts = new HashMap<>();
        int[] length = new int[1];
        Fts5Terms.forEach(text, term -> {
            length[0]++;
            counts.computeIfAbsent(term, k -> new int[1])[0]++;
        });
        int slot = slots++;
        if (slot == ids.length) {
            int n = slot * 2;
            ids = Arrays.copyOf(ids, n);
            lengths = Arrays.copyOf(lengths, n);
            memoryTerms = Arrays.copyOf(memoryTerms, n);
        }
        int[] distinct = new int[counts.size()];
        int k = 0;
        for (Map.Entry<String, int[]> e : counts.entrySet()) {
            int t = termId(e.getKey());
            addPosting(t, slot, e.getValue()[0]);
            holders[t]++;
            distinct[k++] = t;
        }
        ids[slot] = id;
        lengths[slot] = length[0];
        memoryTerms[slot] = distinct;
        slotOf.put(id, slot);
        live++;
        totalLength += length[0];
        livePostings += distinct.length;
    }

    private void removeLocked(String id) {
        Integer slot = slotOf.remove(id);
        if (slot == null) {
            return;
        }
        for (int t : memoryTerms[slot]) {
            holders[t]--;
        }
        live--;
        totalLength -= lengths[slot];
        livePostings -= memoryTerms[slot].length;
        deadPostings += memoryTerms[slot].length;
        ids[slot] = null;
        memoryTerms[slot] = null;
    }

    private int termId(String term) {
        Integer t = termIds.get(term);
        if (t != null) {
            return t;
        }
        int id = terms++;
        if (id == postings.length) {
            int n = id * 2;
            postings = Arrays.copyOf(postings, n);
            postingInts = Arrays.copyOf(postingInts, n);
            holders = Arrays.copyOf(holders, n);
        }
        postings[id] = new int[4];
        termIds.put(term, id);
        return id;
    }

    private void addPosting(int term, int slot, int occurrences) {
        int[] p = postings[term];
        int n = postingInts[term];
        if (n + 2 > p.length) {
            p = Arrays.copyOf(p, p.length * 2);
            postings[term] = p;
        }
        p[n] = slot;
        p[n + 1] = occurrences;
        postingInts[term] = n + 2;
    }

    /** Drops the postings of removed memories, and their slots (live memories are numbered afresh, in order). */
    private void compact() {
        int[] renumbered = new int[slots];
        int next = 0;
        for (int s = 0; s < slots; s++) {
            renumbered[s] = ids[s] == null ? -1 : next;
            if (ids[s] != null) {
                ids[next] = ids[s];
                lengths[next] = lengths[s];
                memoryTerms[next] = memoryTerms[s];
                slotOf.put(ids[next], next);
                next++;
            }
        }
        Arrays.fill(ids, next, slots, null);
        Arrays.fill(memoryTerms, next, slots, null);
        slots = next;
        for (int t = 0; t < terms; t++) {
            int[] p = postings[t];
            int kept = 0;
            for (int i = 0, n = postingInts[t]; i < n; i += 2) {
                int s = renumbered[p[i]];
                if (s >= 0) {
                    p[kept++] = s;
                    p[kept++] = p[i + 1];
                }
            }
            postingInts[t] = kept;
            if (kept < p.length / 4) {
                postings[t] = Arrays.copyOf(p, Math.max(4, kept));
            }
        }
        deadPostings = 0;
    }
}
