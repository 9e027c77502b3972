package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextResponse;
import dev.memfas.Memory;
import dev.memfas.Trigger;
import dev.memfas.core.store.InMemoryMemoryStore;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.StateStore;
import dev.memfas.spi.TokenCountStore;
import dev.memfas.spi.TriggerStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A store that keeps only memories ({@link MemoryStore} and nothing else) still gives a curator state, triggers and
 * token counts: the curator keeps them in memory. A store that keeps them is used for them.
 */
final class StoreFacetsTest {

    /** Only {@link MemoryStore}, over an in-memory store: the facets it has are hidden from the curator. */
    private static MemoryStore memoriesOnly(InMemoryMemoryStore delegate) {
        return (MemoryStore) Proxy.newProxyInstance(MemoryStore.class.getClassLoader(),
                new Class<?>[] {MemoryStore.class}, (proxy, method, args) -> {
                    try {
                        return method.invoke(delegate, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void aStoreOfMemoriesOnly_getsStateTriggersAndTokenCountsKeptInMemory() {
        InMemoryMemoryStore delegate = new InMemoryMemoryStore();
        MemoryStore store = memoriesOnly(delegate);
        assertThat(store).isNotInstanceOfAny(StateStore.class, TriggerStore.class, TokenCountStore.class);

        try (ContextCurator curator = Memfas.newBuilder().store(store).build()) {
            curator.remember(Memory.builder("Deploys go out on Tuesdays.").id("d").build());
            curator.state().save("default", "plan", "{\"step\": 1}");
            curator.triggers().add(Trigger.of("deploy", "Run the migrations first.", "d"));

            ContextResponse r = curator.getContext("when is the next deploy?", "s1");

            assertThat(curator.state().load("default", "plan")).hasValue("{\"step\": 1}");
            assertThat(r.context()).contains("Run the migrations first.").contains("Deploys go out on Tuesdays.");
            assertThat(curator.stats("default").triggers()).isEqualTo(1);
            // Kept by the curator, not written to the store behind the proxy.
            assertThat(delegate.loadState("default", "plan")).isEmpty();
            assertThat(delegate.triggers("default")).isEmpty();
        }
    }

    @Test
    void aStoreThatKeepsStateAndTriggers_isUsedForThem() {
        InMemoryMemoryStore store = new InMemoryMemoryStore();
        try (ContextCurator curator = Memfas.newBuilder().store(store).build()) {
            curator.state().save("default", "plan", "{\"step\": 2}");
            curator.triggers().add(Trigger.of("deploy", "Run the migrations first."));

            assertThat(store.loadState("default", "plan")).hasValue("{\"step\": 2}");
            assertThat(store.triggers("default")).extracting(Trigger::keyword).isEqualTo(List.of("deploy"));
        }
    }
}
