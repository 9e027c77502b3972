package dev.memfas.cli;

import dev.memfas.spi.Embedder;
import dev.memfas.spi.MemoryStore;
import dev.memfas.postgres.PostgresMemoryStore;
import dev.memfas.sqlite.SqliteMemoryStore;

/**
 * What the commands ask of a store beyond the {@link MemoryStore} contract, for either kind the CLI opens: a SQLite
 * file or a PostgreSQL database.
 */
final class Stores {
    private Stores() {}

    static long vectorCount(MemoryStore store, String namespace) {
        return store instanceof PostgresMemoryStore pg ? pg.vectorCount(namespace)
                : ((SqliteMemoryStore) store).vectorCount(namespace);
    }

    static int schemaVersion(MemoryStore store) {
        return store instanceof PostgresMemoryStore pg ? pg.schemaVersion()
                : ((SqliteMemoryStore) store).schemaVersion();
    }

    static int reembed(MemoryStore store, Embedder embedder, int batch) {
        return store instanceof PostgresMemoryStore pg ? pg.reembed(embedder, batch)
                : ((SqliteMemoryStore) store).reembed(embedder, batch);
    }
}
