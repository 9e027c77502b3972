package dev.memfas.core.turn;

import dev.memfas.Memory;
import dev.memfas.core.text.Bm25Index;
import dev.memfas.spi.LexicalHit;
import dev.memfas.spi.StoredMemory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One session's working memory: memories kept in this process only, each until its {@link Memory#expiresAt()}, the
 * least recently used dropped first beyond a limit. A turn of the session draws on them as on stored memories: each
 * keeps its vector, and a small BM25 index over them gives their lexical score (among the working memories, since
 * they are not in the store's index).
 *
 * <p>Thread-safe: every method synchronizes on the working memory.
 */
public final class WorkingMemory {
    /**
     * One working memory.
     *
     * @param vector the memory's unit vector, or null without an embedder
     * @param defaultExpiry whether {@code expiresAt} is the curator's working-memory TTL rather than the caller's
     */
    public record Entry(StoredMemory stored, float[] vector, boolean defaultExpiry) {
        public Memory memory() {
            return stored.memory();
        }
    }

    private final int limit;
    /** In access order: the least recently used first. */
    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private final Bm25Index lexical = new Bm25Index();

    WorkingMemory(int limit) {
        this.limit = limit;
    }

    /** Keeps a memory, replacing one with its id; returns the memories dropped to stay within the limit. */
    public synchronized List<Memory> put(Entry entry, Instant now) {
        dropExpired(now);
        String id = entry.memory().id();
        entries.put(id, entry);
        lexical.put(id, entry.memory().text());
        List<Memory> evicted = new ArrayList<>();
        Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator();
        while (entries.size() > limit && it.hasNext()) {
            Map.Entry<String, Entry> eldest = it.next();
            it.remove();
            lexical.remove(eldest.getKey());
            evicted.add(eldest.getValue().memory());
        }
        return evicted;
    }

    /** The live entry with this id, without counting it as a use; null if none. */
    public synchronized Entry peek(String id, Instant now) {
        dropExpired(now);
        // A get on an access-ordered map is a use; iterate values to peek.
        for (Entry e : entries.values()) {
            if (e.memory().id().equals(id)) {
                return e;
            }
        }
        return null;
    }

    /** Drops the memory with this id; returns it, or null if none. */
    public synchronized Entry remove(String id) {
        Entry e = entries.remove(id);
        if (e != null) {
            lexical.remove(id);
        }
        return e;
    }

    /** The live memories, most recently used first. */
    public synchronized List<Memory> memories(Instant now) {
        dropExpired(now);
        List<Memory> out = new ArrayList<>(entries.size());
        for (Entry e : entries.values()) {
            out.add(e.memory());
        }
        java.util.Collections.reverse(out);
        return out;
    }

    synchronized int size() {
        return entries.size();
    }

    /**
     * Adds the live working memories the turn may use to the candidates, each with its cosine to the query and its
     * BM25 score among the working memories. Reading them is not a use; {@link #recordUse} is.
     *
     * @param query the query's unit vector, or null without an embedder
     */
    public synchronized void addCandidates(String queryText, float[] query, InForce inForce, CandidateSet out) {
        dropExpired(inForce.now());
        if (entries.isEmpty()) {
            return;
        }
        Map<String, Double> bm25 = new java.util.HashMap<>();
        for (LexicalHit hit : lexical.search(queryText, entries.size())) {
            bm25.put(hit.memoryId(), hit.score());
        }
        for (Entry e : entries.values()) {
            if (inForce.admits(e.memory()) && out.indexOf(e.memory().id()) < 0) {
                out.addWorking(e.stored(), e.vector(), bm25.getOrDefault(e.memory().id(), 0.0), query);
            }
        }
    }

    /**
     * Adds the live working memories the turn may use to the candidates, most recently used first, without a query
     * to score them by (the start of a session: {@link SessionOpening}). Reading them is not a use.
     */
    synchronized void addAll(InForce inForce, CandidateSet out) {
        dropExpired(inForce.now());
        List<Entry> newestFirst = new ArrayList<>(entries.values());
        java.util.Collections.reverse(newestFirst);
        for (Entry e : newestFirst) {
            if (inForce.admits(e.memory()) && out.indexOf(e.memory().id()) < 0) {
                out.addWorking(e.stored(), null, 0, null);
            }
        }
    }

    /** Counts a use of each of these memories that is here: an access, and most recently used. */
    public synchronized void recordUse(Collection<String> ids, Instant at) {
        for (String id : ids) {
            Entry e = entries.get(id);
            if (e != null) {
                StoredMemory s = e.stored();
                entries.put(id, new Entry(new StoredMemory(s.memory(), s.accessCount() + 1, at, s.evidenceCount()),
                        e.vector(), e.defaultExpiry()));
            }
        }
    }

    private void dropExpired(Instant now) {
        Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, Entry> e = it.next();
            if (e.getValue().memory().isExpiredAt(now)) {
                it.remove();
                lexical.remove(e.getKey());
            }
        }
    }
}
