package dev.memfas.postgres;

import dev.memfas.spi.MemoryStore;
import dev.memfas.testkit.MemoryStoreContract;
import dev.memfas.testkit.StateStoreContract;
import dev.memfas.testkit.TokenCountStoreContract;
import dev.memfas.testkit.TriggerStoreContract;

/** The store contract, against a real PostgreSQL server, each test in a schema of its own. */
final class PostgresMemoryStoreContractTest extends MemoryStoreContract
        implements StateStoreContract, TriggerStoreContract, TokenCountStoreContract {
    @Override
    protected MemoryStore newStore() {
        return PostgresMemoryStore.open(EmbeddedPostgres.shared().newSchemaUrl());
    }
}
