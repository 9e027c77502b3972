package dev.memfas.spi;

import dev.memfas.Memory;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;

/**
 * A store that keeps memories' token counts, so that a curator started again does not count every memory anew.
 * Implemented by a {@link MemoryStore} that has a place for them; checked by
 * {@code dev.memfas.testkit.TokenCountStoreContract}. Implementations are thread-safe.
 */
public interface TokenCountStore {
    /**
     * A memory's token count under one tokenizer, as it was when counted.
     *
     * @param memory the memory exactly as counted
     * @param tokens its token count
     */
    record TokenCount(Memory memory, int tokens) {
        /** Checks the memory is present and the count not negative. */
        public TokenCount {
            Objects.requireNonNull(memory, "memory");
            if (tokens < 0) {
                throw new IllegalArgumentException("token count must not be negative: " + tokens);
            }
        }
    }

    /**
     * Caches token counts under a key naming the tokenizer (and whatever else the count depends on), in one step. A
     * count is kept only if the stored memory still equals the one counted, so a count can never outlive a change;
     * replacing a memory drops its counts.
     */
    void putTokenCounts(String tokenizerKey, Collection<TokenCount> counts);

    /** The cached token counts of the given memories of one namespace under a key; ids without one are absent. */
    Map<String, Integer> tokenCounts(String namespace, String tokenizerKey, Collection<String> ids);
}
