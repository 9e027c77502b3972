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
    /** Bytes a memory costs beyond its postings: its id's string and map entry, its length, its terms' array. */
    private static final int BYTES_PER_MEMORY = 120;
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
                    + (livePostings + deadPostings) * 12;
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
            double[] scores = new double[slots];
            int[] touched = new int[16];
            int touchedCount = 0;
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
                    if (scores[slot] == 0.0) {
                        if (touchedCount == touched.length) {
                            touched = Arrays.copyOf(touched, touchedCount * 2);
                        }
                        touched[touchedCount++] = slot;
                    }
                    scores[slot] += idf * ((tf * (K1 + 1.0)) / (tf + K1 * (1 - B + B * length / averageLength)));
                }
            }
            return best(scores, touched, touchedCount, limit);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The best {@code limit} of the touched slots, best first: a heap of slots whose head is the worst kept. */
    private List<LexicalHit> best(double[] scores, int[] touched, int count, int limit) {
        int[] heap = new int[Math.min(limit, count)];
        int size = 0;
        for (int i = 0; i < count; i++) {
            int slot = touched[i];
            if (size < heap.length) {
                heap[size] = slot;
                siftUp(heap, size++, scores);
            } else if (worse(heap[0], slot, scores)) {
                heap[0] = slot;
                siftDown(heap, size, scores);
            }
        }
        LexicalHit[] hits = new LexicalHit[size];
        while (size > 0) {
            int slot = heap[0];
            hits[--size] = new LexicalHit(ids[slot], scores[slot]);
            heap[0] = heap[size];
            siftDown(heap, size, scores);
        }
        return List.of(hits);
    }

    /** Whether slot {@code a} ranks below slot {@code b}: a lower score, or the same and a greater id. */
    private boolean worse(int a, int b, double[] scores) {
        int byScore = Double.compare(scores[a], scores[b]);
        return byScore != 0 ? byScore < 0 : ids[a].compareTo(ids[b]) > 0;
    }

    private void siftUp(int[] heap, int at, double[] scores) {
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (!worse(heap[at], heap[parent], scores)) {
                return;
            }
            int t = heap[at];
            heap[at] = heap[parent];
            heap[parent] = t;
            at = parent;
        }
    }

    private void siftDown(int[] heap, int size, double[] scores) {
        int at = 0;
        while (true) {
            int worst = at;
            for (int child = 2 * at + 1; child <= 2 * at + 2 && child < size; child++) {
                if (worse(heap[child], heap[worst], scores)) {
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
