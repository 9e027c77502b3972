package dev.memfas.core;

import dev.memfas.Memory;
import dev.memfas.MemoryStore;
import dev.memfas.Tokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Knows each candidate's token count as a whole envelope item before the budget is filled. Most come from this
 * curator's {@link TokenCountCache}; those it has not seen are looked up in the store's cache of counts (so counts
 * survive restarts), and those missing there are counted now and written back: the one write of a turn's read path,
 * a cache that outlives the process. Thread-safe.
 */
final class TokenCounter {
    private final MemoryStore store;
    private final Tokenizer tokenizer;
    private final TokenCountCache cache;
    /** The key of the store's cached counts: the tokenizer and the item format they were counted for. */
    private final String storeKey;

    TokenCounter(MemoryStore store, Tokenizer tokenizer, TokenCountCache cache) {
        this.store = store;
        this.tokenizer = tokenizer;
        this.cache = cache;
        this.storeKey = tokenizer.id() + "/" + ContextEnvelope.ITEM_FORMAT;
    }

    /**
     * Counts memories as they are written, into this curator's cache and the store's, so that the first turn to meet
     * them finds their counts instead of counting hundreds of long memories itself (after a bulk import, the first
     * turn's cost).
     */
    void countWritten(List<Memory> memories) {
        List<MemoryStore.TokenCount> counted = new ArrayList<>(memories.size());
        for (Memory m : memories) {
            if (cache.find(m) == null) {
                int tokens = tokenizer.count(ContextEnvelope.memory(m, m.text()));
                cache.put(m, tokens);
                counted.add(new MemoryStore.TokenCount(m, tokens));
            }
        }
        if (!counted.isEmpty()) {
            store.putTokenCounts(storeKey, counted);
        }
    }

    /** Sets every candidate's token count and text hash. */
    void count(Turn turn, CandidateSet candidates) {
        List<Integer> unseen = null;
        for (int i = 0; i < candidates.size(); i++) {
            TokenCountCache.Entry cached = cache.find(candidates.memory(i));
            if (cached == null) {
                if (unseen == null) {
                    unseen = new ArrayList<>();
                }
                unseen.add(i);
            } else {
                candidates.setTokens(i, cached.tokens());
                candidates.setTextHash(i, cached.textHash());
            }
        }
        if (unseen == null) {
            return;
        }
        List<String> ids = new ArrayList<>(unseen.size());
        unseen.forEach(i -> ids.add(candidates.id(i)));
        Map<String, Integer> stored = store.tokenCounts(turn.namespace(), storeKey, ids);
        List<MemoryStore.TokenCount> counted = new ArrayList<>();
        for (int i : unseen) {
            Memory m = candidates.memory(i);
            Integer tokens = stored.get(m.id());
            if (tokens == null) {
                String rendered = ContextEnvelope.memory(m, m.text());
                candidates.setRendered(i, rendered);
                tokens = tokenizer.count(rendered);
                counted.add(new MemoryStore.TokenCount(m, tokens));
            }
            candidates.setTokens(i, tokens);
            candidates.setTextHash(i, cache.put(m, tokens).textHash());
        }
        if (!counted.isEmpty()) {
            store.putTokenCounts(storeKey, counted);
        }
    }
}
