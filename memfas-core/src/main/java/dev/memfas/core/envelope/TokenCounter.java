package dev.memfas.core.envelope;

import dev.memfas.Memory;
import dev.memfas.core.turn.CandidateSet;
import dev.memfas.core.turn.Turn;
import dev.memfas.spi.TokenCountStore;
import dev.memfas.spi.Tokenizer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Knows each candidate's token count as a whole envelope item before the budget is filled. Most come from this
 * curator's {@link TokenCountCache}; those it has not seen are looked up in the store's cache of counts (so counts
 * survive restarts), and those missing there are counted now and written back: the one write of a turn's read path,
 * a cache that outlives the process. Thread-safe.
 */
public final class TokenCounter {
    private final TokenCountStore store;
    private final Tokenizer tokenizer;
    private final TokenCountCache cache;
    /** The key of the store's cached counts: the tokenizer and the item format they were counted for. */
    private final String storeKey;
    /** By the words of an age: the tokens they add to an item ({@link #ageTokens(Tokenizer)}). */
    private final Map<String, Integer> ageTokens;

    public TokenCounter(TokenCountStore store, Tokenizer tokenizer, TokenCountCache cache) {
        this.store = store;
        this.tokenizer = tokenizer;
        this.cache = cache;
        this.storeKey = tokenizer.id() + "/" + ContextEnvelope.ITEM_FORMAT;
        this.ageTokens = ageTokens(tokenizer);
    }

    /**
     * Counts memories as they are written, into the store's cache of counts, so that the first turn to meet them finds
     * their counts instead of counting hundreds of long memories itself (after a bulk import, the first turn's cost).
     * Not into this curator's cache: an entry holds its memory, and a bulk write would keep every text it wrote in
     * the heap; a turn takes a candidate's count from the store the first time and caches it then.
     */
    public void countWritten(List<Memory> memories) {
        List<TokenCountStore.TokenCount> counted = new ArrayList<>(memories.size());
        for (Memory m : memories) {
            if (cache.find(m) == null) {
                counted.add(new TokenCountStore.TokenCount(m, tokenizer.count(ContextEnvelope.memory(m, m.text()))));
            }
        }
        if (!counted.isEmpty()) {
            store.putTokenCounts(storeKey, counted);
        }
    }

    /**
     * Sets every candidate's token count and text hash; a candidate dated by how long ago it was
     * ({@link ContextEnvelope#age}, the last two weeks) counts those words instead of its date.
     */
    public void count(Turn turn, CandidateSet candidates) {
        countPlain(turn, candidates);
        Instant at = turn.inForce().at();
        for (int i = 0; i < candidates.size(); i++) {
            String age = ContextEnvelope.age(candidates.memory(i).createdAt(), at);
            if (age != null) {
                if (candidates.today() == null) {
                    StringBuilder day = new StringBuilder(10);
                    ContextEnvelope.appendDate(day, at);
                    candidates.setToday(day.toString());
                }
                candidates.setAge(i, age);
                candidates.setTokens(i, candidates.tokens(i) + ageTokens.get(age));
                candidates.setRendered(i, null);
            }
        }
    }

    /**
     * The tokens the words of an age add to an item in place of its date (fewer: "3 days ago" is 3 tokens where
     * "2026-11-21" is 6). They stand between the quotes of the date attribute, places the format fixes whatever the
     * memory says, and pre-tokenizing patterns split at those quotes, so the difference measured on one item holds
     * for all; an item's count is then its cached count plus this, and the store's cache stays valid as the words
     * change from day to day.
     * Measured once per curator, for every age.
     */
    private static Map<String, Integer> ageTokens(Tokenizer tokenizer) {
        Memory reference = Memory.builder("x").id("x").createdAt(Instant.parse("2026-01-15T12:00:00Z")).build();
        int plain = tokenizer.count(ContextEnvelope.memory(reference, "x"));
        Map<String, Integer> out = new HashMap<>();
        for (int days = 0; days <= ContextEnvelope.MOST_DAYS_AGO; days++) {
            String age = ContextEnvelope.age(reference.createdAt(), reference.createdAt().plus(Duration.ofDays(days)));
            out.put(age, tokenizer.count(ContextEnvelope.memory(reference, "x", age)) - plain);
        }
        return Map.copyOf(out);
    }

    private void countPlain(Turn turn, CandidateSet candidates) {
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
        List<TokenCountStore.TokenCount> counted = new ArrayList<>();
        for (int i : unseen) {
            Memory m = candidates.memory(i);
            Integer tokens = stored.get(m.id());
            if (tokens == null) {
                String rendered = ContextEnvelope.memory(m, m.text());
                candidates.setRendered(i, rendered);
                tokens = tokenizer.count(rendered);
                counted.add(new TokenCountStore.TokenCount(m, tokens));
            }
            candidates.setTokens(i, tokens);
            candidates.setTextHash(i, cache.put(m, tokens).textHash());
        }
        if (!counted.isEmpty()) {
            store.putTokenCounts(storeKey, counted);
        }
    }
}
