package dev.memfas.core;

import dev.memfas.spi.MemoryStore;
import dev.memfas.testkit.MemoryStoreContract;

final class InMemoryMemoryStoreTest extends MemoryStoreContract {
    @Override
    protected MemoryStore newStore() {
        return new InMemoryMemoryStore();
    }
}
