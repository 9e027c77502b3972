package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.Memory;
import dev.memfas.core.store.InMemoryMemoryStore;
import dev.memfas.spi.Embeddings;
import dev.memfas.spi.VectorSpace;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A curator over many namespaces loads each one's index at its first turn and keeps the loaded ones within a limit. */
final class IndexMemoryLimitTest {
    private static final int DIMENSION = 384;
    private static final int NAMESPACES = 30;

    /**
     * 30 namespaces of 60 memories; in each, memory "fact" holds the namespace's own word, which the others do not.
     * An index of 60 vectors of 384 dimensions takes about 200 KB, so the 1 MB limit holds four or five.
     */
    private static InMemoryMemoryStore store(HashingEmbedder embedder) {
        InMemoryMemoryStore store = new InMemoryMemoryStore();
        VectorSpace space = new VectorSpace(embedder.modelId(), DIMENSION);
        for (int n = 0; n < NAMESPACES; n++) {
            List<Memory> memories = new ArrayList<>();
            for (int i = 0; i < 59; i++) {
                memories.add(Memory.builder("routine note " + i + " about the weekly sync").namespace("ns" + n)
                        .id("note" + i).createdAt(Instant.parse("2026-11-01T00:00:00Z")).build());
            }
            memories.add(Memory.builder("the codeword of this team is word" + n).namespace("ns" + n).id("fact")
                    .createdAt(Instant.parse("2026-11-02T00:00:00Z")).build());
            store.upsertAll(memories, Embeddings.of(space,
                    embedder.embedAll(memories.stream().map(Memory::text).toList())));
        }
        return store;
    }

    @Test
    void eachNamespaceLoadsAtItsFirstTurn_andTheLoadedOnesStayWithinTheLimit() {
        HashingEmbedder embedder = new HashingEmbedder(DIMENSION);
        try (ContextCurator curator = Memfas.newBuilder().store(store(embedder)).embedder(embedder)
                .indexMemoryLimit(1 << 20).build()) {
            assertThat(curator.stats().vectors()).as("building loads no namespace").isZero();

            for (int round = 0; round < 2; round++) {
                for (int n = 0; n < NAMESPACES; n++) {
                    List<String> ids = curator.getContext(ContextRequest.builder("what is the codeword word" + n)
                            .namespace("ns" + n).build()).memoryIds();
                    assertThat(ids).as("ns%d, round %d", n, round).startsWith("fact");
                    assertThat(curator.stats("ns" + n).vectors()).isIn(0L, 60L);
                    assertThat(curator.stats().vectors()).as("loaded vectors after ns%d", n)
                            .isLessThanOrEqualTo(6 * 60);
                }
            }
            // A namespace in steady use stays loaded.
            for (int turn = 0; turn < 10; turn++) {
                curator.getContext(ContextRequest.builder("what is the codeword word0").namespace("ns0").build());
            }
            assertThat(curator.stats("ns0").vectors()).isEqualTo(60);
        }
    }

    @Test
    void aLimitUnderOneMegabyte_isRefused() {
        assertThatThrownBy(() -> Memfas.newBuilder().indexMemoryLimit(1_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("index memory limit must be at least 1 MB (1048576 bytes): 1000");
    }
}
