package dev.memfas.core;

import dev.memfas.Tokenizer;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers the token count of each memory's rendered item, so a memory that is a candidate turn after turn is
 * tokenized once. An entry is keyed by namespace and id and checked against the rendered text's hash and length, so
 * a changed memory is counted anew. Bounded: past the limit the cache starts over.
 *
 * <p>Thread-safe.
 */
final class TokenCountCache {
    private record Entry(int hash, int length, int tokens) {}

    private final Tokenizer tokenizer;
    private final int maxEntries;
    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

    TokenCountCache(Tokenizer tokenizer, int maxEntries) {
        this.tokenizer = tokenizer;
        this.maxEntries = maxEntries;
    }

    /** Whether a count of exactly this rendering of the memory is cached. */
    boolean has(String namespace, String memoryId, String rendered) {
        Entry e = entries.get(key(namespace, memoryId));
        return e != null && e.hash() == rendered.hashCode() && e.length() == rendered.length();
    }

    /** Caches a count known from elsewhere (the store). */
    void put(String namespace, String memoryId, String rendered, int tokens) {
        if (entries.size() >= maxEntries) {
            entries.clear();
        }
        entries.put(key(namespace, memoryId), new Entry(rendered.hashCode(), rendered.length(), tokens));
    }

    private static String key(String namespace, String memoryId) {
        return namespace + '\u0000' + memoryId;
    }

    int count(String namespace, String memoryId, String rendered) {
        String key = key(namespace, memoryId);
        Entry e = entries.get(key);
        int hash = rendered.hashCode();
        if (e != null && e.hash() == hash && e.length() == rendered.length()) {
            return e.tokens();
        }
        int tokens = tokenizer.count(rendered);
        if (entries.size() >= maxEntries) {
            entries.clear();
        }
        entries.put(key, new Entry(hash, rendered.length(), tokens));
        return tokens;
    }
}
