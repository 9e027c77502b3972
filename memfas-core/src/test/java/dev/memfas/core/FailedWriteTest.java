package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.MemfasException;
import dev.memfas.Memory;
import dev.memfas.RecallHit;
import dev.memfas.RecallRequest;
import dev.memfas.core.store.InMemoryMemoryStore;
import dev.memfas.spi.MemoryStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A write the store committed but reported as failed: the curator's index must still come to hold it. */
final class FailedWriteTest {
    private static final Instant NOW = Instant.parse("2026-11-01T12:00:00Z");

    @Test
    void aWriteCommittedBeforeItFailed_isFoundByMeaning_afterTheRetryThatFindsItUnchanged() {
        InMemoryMemoryStore stored = new InMemoryMemoryStore();
        AtomicBoolean failNextWrite = new AtomicBoolean();
        // The store commits the memories, then its acknowledgment is lost, as when the server goes away between the
        // commit and its answer.
        MemoryStore store = (MemoryStore) Proxy.newProxyInstance(MemoryStore.class.getClassLoader(),
                new Class<?>[] {MemoryStore.class}, (proxy, method, args) -> {
                    Object result;
                    try {
                        result = method.invoke(stored, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (method.getName().equals("upsertAll") && failNextWrite.getAndSet(false)) {
                        throw new MemfasException("the server cannot be reached");
                    }
                    return result;
                });
        try (ContextCurator curator = Memfas.newBuilder().store(store).clock(new MutableClock(NOW))
                .embedder(new HashingEmbedder(64)).build()) {
            curator.remember(Memory.builder("kafka retention is seven days").id("kept").build());
            Memory lost = Memory.builder("postgres vacuum runs nightly").id("lost").build();

            failNextWrite.set(true);
            assertThatThrownBy(() -> curator.remember(lost)).isInstanceOf(MemfasException.class);
            assertThat(stored.get("default", "lost")).as("committed before the failure").isPresent();
            curator.remember(lost); // the caller's retry: stored and unchanged, nothing to write

            List<RecallHit> hits = curator.recall(RecallRequest.builder("postgres vacuum nightly").limit(1).build());
            assertThat(hits).extracting(h -> h.memory().id()).containsExactly("lost");
            assertThat(hits.get(0).factors().semantic()).as("found in the index, by meaning").isPositive();
            assertThat(curator.stats().vectors()).isEqualTo(2);
        }
    }
}
