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

    /** Whether a database setting names a PostgreSQL database (by URL) rather than a SQLite file. */
    static boolean isPostgresUrl(String location) {
        return location.startsWith("jdbc:postgresql:") || location.startsWith("postgresql://")
                || location.startsWith("postgres://");
    }

    /** A PostgreSQL URL as messages show it: no parameters (which may hold a password), no user information. */
    static String display(String url) {
        int query = url.indexOf('?');
        String base = query < 0 ? url : url.substring(0, query);
        int scheme = base.indexOf("://");
        int at = base.lastIndexOf('@');
        return scheme >= 0 && at > scheme ? base.substring(0, scheme + 3) + base.substring(at + 1) : base;
    }

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
