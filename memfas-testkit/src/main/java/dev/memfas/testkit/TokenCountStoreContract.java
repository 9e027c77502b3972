package dev.memfas.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.Memory;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.TokenCountStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link TokenCountStore} must have. A store's test that extends {@link MemoryStoreContract} and
 * keeps token counts implements this interface too.
 */
public interface TokenCountStoreContract {
    /** The store under test, open for the current test ({@link MemoryStoreContract#store()}). */
    MemoryStore store();

    /** The same store, as a keeper of token counts. */
    default TokenCountStore tokenCountStore() {
        return (TokenCountStore) store();
    }

    @Test
    default void tokenCounts_areKeptPerKey_droppedOnReplace_andIgnoredWhenStale() {
        Memory a = Memory.builder("alpha text").id("a").createdAt(MemoryHistoryContract.T0).build();
        Memory b = Memory.builder("beta text").id("b").createdAt(MemoryHistoryContract.T0).build();
        store().upsertAll(List.of(a, b));
        store().upsertAll(List.of(Memory.builder("other tenant").id("a").namespace("other")
                .createdAt(MemoryHistoryContract.T0).build()));

        tokenCountStore()
                .putTokenCounts("cl100k",
                        List.of(new TokenCountStore.TokenCount(a, 7), new TokenCountStore.TokenCount(b, 9)));
        tokenCountStore().putTokenCounts("o200k", List.of(new TokenCountStore.TokenCount(a, 6)));

        assertThat(tokenCountStore().tokenCounts(Memory.DEFAULT_NAMESPACE, "cl100k", List.of("a", "b", "zzz")))
                .containsExactlyInAnyOrderEntriesOf(Map.of("a", 7, "b", 9));
        assertThat(tokenCountStore().tokenCounts(Memory.DEFAULT_NAMESPACE, "o200k", List.of("a", "b")))
                .containsExactlyEntriesOf(Map.of("a", 6));
        assertThat(tokenCountStore().tokenCounts("other", "cl100k", List.of("a"))).isEmpty();

        Memory a2 = Memory.builder("alpha text, rewritten").id("a").createdAt(MemoryHistoryContract.T0).build();
        store().upsertAll(List.of(a2));
        assertThat(tokenCountStore().tokenCounts(Memory.DEFAULT_NAMESPACE, "cl100k", List.of("a"))).isEmpty();

        tokenCountStore().putTokenCounts("cl100k", List.of(new TokenCountStore.TokenCount(a, 7)));
        assertThat(tokenCountStore().tokenCounts(Memory.DEFAULT_NAMESPACE, "cl100k", List.of("a"))).isEmpty();
        tokenCountStore().putTokenCounts("cl100k", List.of(new TokenCountStore.TokenCount(a2, 11)));
        assertThat(tokenCountStore().tokenCounts(Memory.DEFAULT_NAMESPACE, "cl100k", List.of("a")))
                .containsExactlyEntriesOf(Map.of("a", 11));
    }
}
