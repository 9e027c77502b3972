package dev.memfas.config;

import dev.memfas.config.internal.ConfigFile;
import dev.memfas.postgres.PostgresMemoryStore;
import dev.memfas.spi.MemoryStore;
import java.nio.file.Path;

/**
 * Opens the PostgreSQL store a {@code db:} URL names. memfas-postgres is an optional dependency of this module: this
 * class is loaded only for such a URL, after {@link #available()} said the store is on the class path.
 */
final class PostgresStores {
    private static final String STORE_CLASS = "dev.memfas.postgres.PostgresMemoryStore";

    private PostgresStores() {}

    /**
     * The store, its tables created when missing.
     *
     * @throws IllegalArgumentException if memfas-postgres is not on the class path
     */
    static MemoryStore open(String url, Path configFile) {
        if (!available()) {
            throw new IllegalArgumentException(configFile + ": db names a PostgreSQL database ("
                    + ConfigFile.displayUrl(url) + ") but dev.memfas:memfas-postgres is not on the class path: add it");
        }
        return Opener.open(url);
    }

    private static boolean available() {
        try {
            Class.forName(STORE_CLASS, false, PostgresStores.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Holds the only reference to the store's class, so that verifying {@link PostgresStores} never loads it. */
    private static final class Opener {
        static MemoryStore open(String url) {
            return PostgresMemoryStore.open(url);
        }
    }
}
