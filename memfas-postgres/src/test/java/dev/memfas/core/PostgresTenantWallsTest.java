package dev.memfas.core;

import dev.memfas.spi.MemoryStore;
import dev.memfas.postgres.EmbeddedPostgres;
import dev.memfas.postgres.PostgresMemoryStore;

/**
 * The two-tenant random-operations property test over a real PostgreSQL server. (In core's package: the test and its
 * helpers are core's own test classes.)
 */
final class PostgresTenantWallsTest extends TenantWallsTest {
    @Override
    protected MemoryStore store() {
        return PostgresMemoryStore.open(EmbeddedPostgres.shared().newSchemaUrl());
    }
}
