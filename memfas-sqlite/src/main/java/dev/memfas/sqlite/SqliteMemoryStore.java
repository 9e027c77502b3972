package dev.memfas.sqlite;

import dev.memfas.MemfasException;
import dev.memfas.Memory;
import dev.memfas.spi.Embedder;
import dev.memfas.spi.Embeddings;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.SharedStore.Kind;
import dev.memfas.spi.VectorSpace;
import dev.memfas.sql.AbstractSqlStore;
import dev.memfas.sql.SqlStoreParts;
import dev.memfas.sql.SqlTables;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A {@link MemoryStore} in one SQLite file: memories, their vectors, access statistics, triggers and a key-value
 * state table, durable across restarts; text is searched per namespace in the process (BM25 as FTS5 ranks it).
 *
 * <p>Open with {@link #open(Path)}, or {@link #builder(Path)} for options. The file is created if missing, and its
 * schema migrated forward (see {@code docs/storage.md}).
 *
 * <p><b>Concurrency.</b> The file is in WAL mode: one writer and any number of readers at once, readers never blocked
 * by the writer. This object keeps one writer connection, used under a lock, and a small pool of reader connections;
 * it is thread-safe. Other processes (and other stores on the same file) may use it at the same time; a writer that
 * finds the file locked waits up to the busy timeout, then fails with a {@link MemfasException}.
 *
 * <p><b>Durability.</b> With the default {@link Durability#NORMAL}, a committed write survives the process being
 * killed at any moment; a power loss or OS crash may lose the last transactions, never corrupt the file. With
 * {@link Durability#FULL}, every commit is also synced to disk before it returns.
 *
 * <p>This class is the façade over the connections ({@code SqliteDatabase}), the schema ({@code Schema}) and a class
 * per table ({@code MemoriesTable} with its full-text index, {@code VectorsTable}, {@code StateTable},
 * {@code ChangeLog}); the calls it answers as the PostgreSQL store does are
 * {@link AbstractSqlStore}'s, over those tables.
 */
public final class SqliteMemoryStore extends AbstractSqlStore {
    /** How hard each commit works to reach the disk. */
    public enum Durability {
        /** Survives a process crash; an OS crash or power loss may lose the last commits (SQLite synchronous=NORMAL).
         * */
        NORMAL,
        /** Also survives an OS crash or power loss; each commit waits for the disk (SQLite synchronous=FULL). */
        FULL
    }

    private static final SqlTables TABLES = new SqlTables(SqliteDialect.INSTANCE, MemoriesTable.INSTANCE,
            VersionsTable.INSTANCE, Counters.INSTANCE, ChangeLog.INSTANCE, VectorsTable.ROWS, StateTable.INSTANCE);
    private final SqliteDatabase db;
    private final SqlStoreParts parts;

    private SqliteMemoryStore(Builder b) {
        this.db = new SqliteDatabase(b.file.toAbsolutePath(), b.busyTimeout, b.durability, b.readConnections);
        this.parts = new SqlStoreParts(db, TABLES, b.clock, b.lexicalMemory);
        try {
            knowSpace(db.read("read the vector space", this::readSpace));
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
    }

    /**
     * Opens (creating if missing) the store in the given file with default options.
     *
     * @throws MemfasException if the file is not a SQLite database, is corrupt, was written by a newer schema, cannot
     *     be created or written, or stays locked past the busy timeout; the message names the file and the problem
     */
    public static SqliteMemoryStore open(Path file) {
        return builder(file).build();
    }

    /** Starts a store with options. */
    public static Builder builder(Path file) {
        return new Builder(Objects.requireNonNull(file, "file"));
    }

    /** Options of a {@link SqliteMemoryStore}. Not thread-safe. */
    public static final class Builder {
        private final Path file;
        private Duration busyTimeout = Duration.ofSeconds(5);
        private int readConnections = 4;
        private Durability durability = Durability.NORMAL;
        private Clock clock = Clock.systemUTC();
        private long lexicalMemory = DEFAULT_LEXICAL_MEMORY;

        private Builder(Path file) {
            this.file = file;
        }

        /** How long a write waits for a lock held by another connection or process; 5 s when not set. */
        public Builder busyTimeout(Duration timeout) {
            this.busyTimeout = checkWait("busy timeout", timeout);
            return this;
        }

        /** How many reader connections to keep; 4 when not set. */
        public Builder readConnections(int count) {
            if (count < 1 || count > 64) {
                throw new IllegalArgumentException("read connections must be in [1, 64]: " + count);
            }
            this.readConnections = count;
            return this;
        }

        /** How durable each commit is; {@link Durability#NORMAL} when not set. */
        public Builder durability(Durability durability) {
            this.durability = Objects.requireNonNull(durability, "durability");
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
         * Opens the store.
         *
         * @throws MemfasException as {@link SqliteMemoryStore#open(Path)}
         */
        public SqliteMemoryStore build() {
            return new SqliteMemoryStore(this);
        }
    }

    /** The file this store keeps its data in. */
    public Path file() {
        return db.file();
    }

    // ---------------------------------------------------------------- memories

    @Override
    public void upsertAll(List<Memory> memories, Embeddings embeddings) {
        Objects.requireNonNull(memories, "memories");
        Objects.requireNonNull(embeddings, "embeddings");
        db.write("write memories", c -> {
            if (knownSpace() == null) {
                // Another process may have stored the first vectors since this one opened the file.
                knowSpace(readSpace(c));
            }
            MemoryStore.checkUpsert(memories, embeddings, knownSpace());
            if (!embeddings.isEmpty() && knownSpace() == null) {
                writeSpace(c, embeddings.space());
            }
            MemoriesTable.putAll(c, memories, embeddings);
            for (Memory m : memories) {
                ChangeLog.append(c, origin(), m.namespace(), Kind.MEMORY, m.id());
            }
            return null;
        }, () -> {
            if (!embeddings.isEmpty() && knownSpace() == null) {
                knowSpace(embeddings.space());
            }
        });
    }

    // ---------------------------------------------------------------- vectors

    /**
     * Replaces every stored vector with the given embedder's, in one transaction, and records the embedder's model
     * as the store's vector space: the way to move a store to another embedding model. Memories are embedded in
     * batches of {@code batchSize}; writes by other threads wait until it is done.
     *
     * @return how many memories were embedded
     * @throws MemfasException if embedding or writing fails; the store keeps its old vectors
     */
    public int reembed(Embedder embedder, int batchSize) {
        VectorSpace space = reembedSpace(embedder, batchSize);
        return db.write("re-embed", c -> {
            int embedded = VectorsTable.replaceAll(c, embedder, batchSize);
            writeSpace(c, space);
            for (String ns : MemoriesTable.memoryNamespaces(c)) {
                ChangeLog.append(c, origin(), ns, Kind.NAMESPACE, null);
            }
            return embedded;
        }, () -> knowSpace(space));
    }

    // ---------------------------------------------------------------- maintenance

    /**
     * Writes a consistent copy of the whole store to a new file while the store stays in use
     * ({@code VACUUM INTO}).
     *
     * @throws MemfasException if the target exists or cannot be written
     */
    public void backupTo(Path target) {
        Objects.requireNonNull(target, "target");
        db.backupTo(target);
    }

    /**
     * Runs {@code PRAGMA integrity_check} on a fresh connection; returns {@code "ok"} for a sound file, else SQLite's
     * findings.
     */
    public String integrityCheck() {
        return db.integrityCheck();
    }

    @Override
    protected SqlStoreParts parts() {
        return parts;
    }

    /** Closes every connection, waiting briefly for readers in use. Idempotent. */
    @Override
    public void close() {
        db.close();
    }
}
