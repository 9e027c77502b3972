package dev.memfas.core.store;

import dev.memfas.spi.MemoryStore;
import dev.memfas.testkit.MemoryStoreContract;
import dev.memfas.testkit.StateStoreContract;
import dev.memfas.testkit.TokenCountStoreContract;
import dev.memfas.testkit.TriggerStoreContract;

final class InMemoryMemoryStoreTest extends MemoryStoreContract
        implements StateStoreContract, TriggerStoreContract, TokenCountStoreContract {
    @Override
    protected MemoryStore newStore() {
        return new InMemoryMemoryStore();
    }
}
