package dev.memfas.postgres;

import dev.memfas.ContextCurator;
import dev.memfas.spi.Embedder;
import dev.memfas.spi.MemoryStore;
import dev.memfas.core.Memfas;
import dev.memfas.testkit.SharedStoreContract;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeEach;

/** The shared-store contract over a real PostgreSQL server, each test in a schema of its own. */
final class PostgresSharedStoreContractTest extends SharedStoreContract {
    private String url;

    @BeforeEach
    void newDatabase() {
        url = EmbeddedPostgres.shared().newSchemaUrl();
    }

    @Override
    protected MemoryStore openStore() {
        return PostgresMemoryStore.open(url);
    }

    @Override
    protected ContextCurator curator(MemoryStore store, Embedder embedder, int candidateLimit) {
        return Memfas.newBuilder().store(store).embedder(embedder).candidateLimit(candidateLimit).build();
    }

    @Override
    protected int reembed(MemoryStore store, Embedder embedder) {
        return ((PostgresMemoryStore) store).reembed(embedder, 1);
    }

    @Override
    protected void pruneChanges(long upTo) {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("DELETE FROM memfas_changes WHERE seq <= " + upTo);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
