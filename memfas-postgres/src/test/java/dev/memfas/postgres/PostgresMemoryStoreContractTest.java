package dev.memfas.postgres;

import dev.memfas.spi.MemoryStore;
import dev.memfas.testkit.MemoryStoreContract;

/** The store contract, against a real PostgreSQL server, each test in a schema of its own. */
final class PostgresMemoryStoreContractTest extends MemoryStoreContract {
    @Override
    protected MemoryStore newStore() {
        return PostgresMemoryStore.open(EmbeddedPostgres.shared().newSchemaUrl());
    }
}
