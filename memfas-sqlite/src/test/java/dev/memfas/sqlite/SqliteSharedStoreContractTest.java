package dev.memfas.sqlite;

import dev.memfas.ContextCurator;
import dev.memfas.spi.Embedder;
import dev.memfas.spi.MemoryStore;
import dev.memfas.core.Memfas;
import dev.memfas.testkit.SharedStoreContract;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.io.TempDir;

/** The shared-store contract over one SQLite file, each store object as another process's would be. */
final class SqliteSharedStoreContractTest extends SharedStoreContract {
    @TempDir
    Path dir;

    @Override
    protected MemoryStore openStore() {
        return SqliteMemoryStore.open(dir.resolve("shared.db"));
    }

    @Override
    protected ContextCurator curator(MemoryStore store, Embedder embedder, int candidateLimit) {
        return Memfas.newBuilder().store(store).embedder(embedder).candidateLimit(candidateLimit).build();
    }

    @Override
    protected int reembed(MemoryStore store, Embedder embedder) {
        return ((SqliteMemoryStore) store).reembed(embedder, 1);
    }

    @Override
    protected void pruneChanges(long upTo) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("shared.db"));
                Statement s = c.createStatement()) {
            s.execute("DELETE FROM changes WHERE seq <= " + upTo);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
