package dev.memfas.postgres;

import dev.memfas.MemfasException;
import dev.memfas.Memory;
import dev.memfas.spi.Embedder;
import dev.memfas.spi.Embeddings;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.SharedStore;
import dev.memfas.spi.StoredMemory;
import dev.memfas.spi.VectorSpace;
import dev.memfas.sql.AbstractSqlStore;
import dev.memfas.sql.SqlStoreParts;
import dev.memfas.sql.SqlTables;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link MemoryStore} in a PostgreSQL database, which many processes on many machines share: memories with their
 * versions, vectors, a text search index ranked by BM25, access statistics, triggers and key-value state, in tables
 * named {@code memfas_*} in the connection's schema.
 *
 * <p>Open with {@link #open(String)} (a JDBC URL), or {@link #builder(DataSource)} over the application's own pool
 * (HikariCP, say). The tables are created if missing and migrated forward (see {@code docs/postgres.md}); a database
 * written by a newer memfas is refused.
 *
 * <p><b>Many processes.</b> The store is a {@link SharedStore}: every committed write is numbered in commit order, so
 * a curator over it applies the writes of every other process before its next turn; and every commit notifies
 * {@code memfas_changes}, on which an idle curator listens (a connection of its own) to apply them at once. Each
 * curator needs a store object of its own.
 *
 * <p><b>Failures.</b> Every write is one transaction: acknowledged when committed, undone entirely otherwise. While
 * the server cannot be reached, calls fail with a {@link MemfasException} that says so; a failed connection is never
 * used again, and the next call connects anew. A transaction that loses a deadlock or a serialization conflict to
 * another process is run again (up to four times in all).
 *
 * <p>This class is the façade over the connections ({@code Database}), the schema ({@code Schema}) and a class per
 * table; the calls it answers as the SQLite store does are {@link AbstractSqlStore}'s, over those tables. Thread-safe.
 */
public final class PostgresMemoryStore extends AbstractSqlStore {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresMemoryStore.class);
    private static final SqlTables TABLES = new SqlTables(PostgresDialect.INSTANCE, MemoriesTable.INSTANCE,
            VersionsTable.INSTANCE, Counters.INSTANCE, ChangeLog.INSTANCE, VectorsTable.ROWS, StateTable.INSTANCE);
    private final Database db;
    /** Where reads go: a read replica if the builder named one, else {@link #db}. */
    private final Database reads;
    private final ChangeNotifications notifications;
    private final SqlStoreParts parts;

    private PostgresMemoryStore(Builder b) {
        this.db = b.dataSource != null ? Database.overPool(b.dataSource, "PostgreSQL (the given data source)",
                b.connectionWait) : Database.overUrl(b.url, "", b.connections, b.connectionWait);
        this.reads = b.readReplicaSource != null ? Database.overPool(b.readReplicaSource,
                "PostgreSQL read replica (the given data source)", b.connectionWait)
                : b.readReplica != null ? Database.overUrl(b.readReplica, " (read replica)", b.connections,
                        b.connectionWait) : db;
        this.notifications = new ChangeNotifications(db);
        this.parts = new SqlStoreParts(new PostgresTransactions(db, reads), TABLES, b.clock,
                b.lexicalMemory);
        try {
            db.read("create or migrate the memfas tables", c -> {
                Schema.migrate(c, db.where());
                return null;
            });
            knowSpace(db.read("read the vector space", this::readSpace));
            String pgvector = db.read("look for pgvector", StoreMeta::pgvectorVersion);
            LOG.info("memfas store in {}: vectors in bytea, searched by each process's in-memory index{}", db.where(),
                    pgvector == null ? "" : " (pgvector " + pgvector + " is installed; this version does not use it)");
        } catch (RuntimeException e) {
            db.close();
            reads.close();
            throw e;
        }
    }

    /**
     * Opens the store in the database at a URL, with default options: {@code jdbc:postgresql://host:port/database} or
     * {@code postgresql://[user[:password]@]host[:port]/database}, with the driver's parameters after {@code ?}.
     *
     * @throws MemfasException if the server cannot be reached, refuses the login, or the database was written by a
     *     newer memfas; the message names the database (never the password) and the problem
     */
    public static PostgresMemoryStore open(String url) {
        return builder(url).build();
    }

    /** Starts a store over a URL, as {@link #open(String)} reads it, with options. */
    public static Builder builder(String url) {
        return new Builder(PostgresUrl.parse(url), null);
    }

    /**
     * Starts a store over the application's {@link DataSource}, usually a connection pool: each call borrows a
     * connection and gives it back. The store never closes the data source.
     */
    public static Builder builder(DataSource dataSource) {
        return new Builder(null, Objects.requireNonNull(dataSource, "dataSource"));
    }

    /** Options of a {@link PostgresMemoryStore}. Not thread-safe. */
    public static final class Builder {
        private final PostgresUrl url;
        private final DataSource dataSource;
        private int connections = 4;
        private Duration connectionWait = Duration.ofSeconds(30);
        private Clock clock = Clock.systemUTC();
        private long lexicalMemory = DEFAULT_LEXICAL_MEMORY;
        private PostgresUrl readReplica;
        private DataSource readReplicaSource;

        private Builder(PostgresUrl url, DataSource dataSource) {
            this.url = url;
            this.dataSource = dataSource;
        }

        /**
         * How many connections a store opened from a URL keeps at most; 4 when not set. (Over a {@link DataSource},
         * its pool decides.)
         */
        public Builder connections(int count) {
            if (count < 1 || count > 256) {
                throw new IllegalArgumentException("connections must be in [1, 256]: " + count);
            }
            this.connections = count;
            return this;
        }

        /** How long a call waits for one of the store's own connections to be free; 30 s when not set. */
        public Builder connectionWait(Duration wait) {
            this.connectionWait = checkWait("connection wait", wait);
            return this;
        }

        /**
         * A read replica (a hot standby of the database) that serves the reads of turns and recalls: searches,
         * memories, neighbors, vectors, token counts, the change log. Writes, key-value state and migrations go to the
         * database. What this store reads is as recent as the replica: a write is in a turn once the replica has
         * replayed it (and this store's own writes too), so a replica suits processes that mostly curate.
         */
        public Builder readReplica(String url) {
            this.readReplica = PostgresUrl.parse(url);
            this.readReplicaSource = null;
            return this;
        }

        /** A read replica given as the application's pool of connections to it; see {@link #readReplica(String)}. */
        public Builder readReplica(DataSource replica) {
            this.readReplicaSource = Objects.requireNonNull(replica, "replica");
            this.readReplica = null;
            return this;
        }

        /** The clock that dates saved state; the system UTC clock when not set. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * How many bytes of heap the full-text indexes of the namespaces searched may take ({@link #searchLexical});
         * 128 MB when not set. Beyond it, those least likely to be searched again are dropped and read again when
         * they are.
         */
        public Builder lexicalIndexMemory(long bytes) {
            this.lexicalMemory = checkLexicalMemory(bytes);
            return this;
        }

        /**
         * Opens the store: connects, and creates or migrates the memfas tables.
         *
         * @throws MemfasException as {@link PostgresMemoryStore#open(String)}
         */
        public PostgresMemoryStore build() {
            return new PostgresMemoryStore(this);
        }
    }

    // ---------------------------------------------------------------- memories

    @Override
    public void upsertAll(List<Memory> memories, Embeddings embeddings) {
        Objects.requireNonNull(memories, "memories");
        Objects.requireNonNull(embeddings, "embeddings");
        MemoryStore.checkUpsert(memories, embeddings, knownSpace());
        if (memories.isEmpty()) {
            return;
        }
        VectorSpace space = db.write("write memories", c -> {
            VectorSpace current = embeddings.isEmpty() ? readSpace(c)
                    : StoreMeta.claimVectorSpace(c, embeddings.space(), this::readSpace);
            // Again against the space in the database: another process may have stored the first vectors.
            MemoryStore.checkUpsert(memories, embeddings, current);
            WriteLog log = new WriteLog();
            MemoryBatch.putAll(c, memories, embeddings, log);
            log.finish(c, origin());
            return current;
        });
        if (space != null) {
            knowSpace(space);
        }
    }

    /** Reads the neighborhoods of all the memories in one statement. */
    @Override
    public Map<String, List<StoredMemory>> neighborhoods(String namespace, Collection<String> ids, int radius) {
        Objects.requireNonNull(ids, "ids");
        List<String> unique = new ArrayList<>(new LinkedHashSet<>(ids));
        for (String id : unique) {
            MemoryStore.checkNeighborhood(namespace, id, radius);
        }
        if (unique.isEmpty()) {
            MemoryStore.checkNeighborhood(namespace, "", radius);
            return Map.of();
        }
        return reads.read("read memories' neighbors", c -> MemoriesTable.neighborhoods(c, namespace, unique, radius));
    }

    /** How many transactions lost a deadlock or a serialization conflict and were run again (or failed). */
    long conflictsLost() {
        return db.conflictsLost();
    }

    // ---------------------------------------------------------------- vectors

    /**
     * Replaces every stored vector with the given embedder's, in one transaction, and records the embedder's model
     * as the store's vector space: the way to move a store to another embedding model. Memories are embedded in
     * batches of {@code batchSize}; other processes see the old vectors until it commits, then rebuild.
     *
     * @return how many memories were embedded
     * @throws MemfasException if embedding or writing fails; the store keeps its old vectors
     */
    public int reembed(Embedder embedder, int batchSize) {
        VectorSpace space = reembedSpace(embedder, batchSize);
        int embedded = db.write("re-embed", c -> {
            int n = VectorsTable.replaceAll(c, embedder, batchSize);
            writeSpace(c, space);
            WriteLog log = new WriteLog();
            for (String namespace : NamespacesTable.withMemories(c)) {
                log.whole(namespace, Kind.NAMESPACE);
            }
            log.finish(c, origin());
            return n;
        });
        knowSpace(space);
        return embedded;
    }

    /**
     * Listens for other processes' commits on a connection of its own ({@code LISTEN memfas_changes}), from the first
     * listener until the store is closed; reconnects if the connection is lost.
     */
    @Override
    public AutoCloseable onChanges(Runnable listener) {
        Objects.requireNonNull(listener, "listener");
        db.ensureOpen();
        return notifications.add(listener);
    }

    @Override
    protected SqlStoreParts parts() {
        return parts;
    }

    /** Closes the store's own connections (never the caller's data source). Idempotent. */
    @Override
    public void close() {
        notifications.close();
        db.close();
        reads.close();
    }
}
