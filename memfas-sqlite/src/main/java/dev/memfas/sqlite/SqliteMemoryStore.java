package dev.memfas.sqlite;

import dev.memfas.Embedder;
import dev.memfas.Embeddings;
import dev.memfas.LexicalHit;
import dev.memfas.MemfasException;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.MemoryStore;
import dev.memfas.SharedStore;
import dev.memfas.SharedStore.Changes;
import dev.memfas.SharedStore.Kind;
import dev.memfas.Scope;
import dev.memfas.StoredMemory;
import dev.memfas.Trigger;
import dev.memfas.VectorSpace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;

/**
 * A {@link MemoryStore} in one SQLite file: memories, their vectors, an FTS5 index for BM25, access statistics,
 * triggers and a key-value state table, durable across restarts.
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
 */
public final class SqliteMemoryStore implements MemoryStore, SharedStore {
    private static final Logger LOG = LoggerFactory.getLogger(SqliteMemoryStore.class);
    private static final int SQLITE_BUSY = 5;
    private static final int SQLITE_LOCKED = 6;
    private static final int SQLITE_READONLY = 8;
    private static final int SQLITE_IOERR = 10;
    private static final int SQLITE_CORRUPT = 11;
    private static final int SQLITE_FULL = 13;
    private static final int SQLITE_CANTOPEN = 14;
    private static final int SQLITE_NOTADB = 26;
    private static final int IN_CHUNK = 500;
    private static final String MEMORY_COLUMNS = "namespace, id, text, source, kind, scope, tags, author, created_s, "
            + "created_ns, updated_s, updated_ns, pinned, importance, metadata, access_count, last_access_us, expires_s, "
            + "expires_ns";

    /** How hard each commit works to reach the disk. */
    public enum Durability {
        /** Survives a process crash; an OS crash or power loss may lose the last commits (SQLite synchronous=NORMAL). */
        NORMAL,
        /** Also survives an OS crash or power loss; each commit waits for the disk (SQLite synchronous=FULL). */
        FULL
    }

    private final Path file;
    private final Duration busyTimeout;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final Connection writer;
    private final BlockingQueue<Connection> readers;
    private final List<Connection> allReaders = new ArrayList<>();
    private volatile VectorSpace vectorSpace;
    private volatile boolean closed;

    private SqliteMemoryStore(Builder b) {
        this.file = b.file.toAbsolutePath();
        this.busyTimeout = b.busyTimeout;
        this.readers = new ArrayBlockingQueue<>(b.readConnections);
        Connection w = null;
        try {
            Path parent = file.getParent();
            if (parent != null && !Files.isDirectory(parent)) {
                throw new MemfasException("cannot open " + file + ": the directory " + parent + " does not exist");
            }
            w = connect(b, false);
            this.writer = w;
            migrate(writer, file, Schema.MIGRATIONS);
            this.vectorSpace = readVectorSpace(writer);
            for (int i = 0; i < b.readConnections; i++) {
                Connection r = connect(b, true);
                allReaders.add(r);
                readers.add(r);
            }
        } catch (SQLException e) {
            closeQuietly(w);
            allReaders.forEach(SqliteMemoryStore::closeQuietly);
            throw failure("open", e);
        } catch (RuntimeException e) {
            closeQuietly(w);
            allReaders.forEach(SqliteMemoryStore::closeQuietly);
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

        private Builder(Path file) {
            this.file = file;
        }

        /** How long a write waits for a lock held by another connection or process; 5 s when not set. */
        public Builder busyTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.toMillis() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("busy timeout must be between 0 and 24 days: " + timeout);
            }
            this.busyTimeout = timeout;
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

        /**
         * Opens the store.
         *
         * @throws MemfasException as {@link SqliteMemoryStore#open(Path)}
         */
        public SqliteMemoryStore build() {
            return new SqliteMemoryStore(this);
        }
    }

    private Connection connect(Builder b, boolean readOnly) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout((int) b.busyTimeout.toMillis());
        config.setSynchronous(b.durability == Durability.FULL
                ? SQLiteConfig.SynchronousMode.FULL : SQLiteConfig.SynchronousMode.NORMAL);
        config.enforceForeignKeys(false);
        Properties props = config.toProperties();
        Connection c = DriverManager.getConnection("jdbc:sqlite:" + file, props);
        try (Statement s = c.createStatement()) {
            // journal_mode=WAL reads the header: a file that is not a database fails here, at open.
            try (ResultSet rs = s.executeQuery("PRAGMA journal_mode=WAL")) {
                rs.next();
            }
            if (readOnly) {
                s.execute("PRAGMA query_only=1");
            }
        } catch (SQLException e) {
            closeQuietly(c);
            throw e;
        }
        return c;
    }

    // ---------------------------------------------------------------- schema

    /** Brings the file to the last of the given migrations, one transaction per migration. */
    static void migrate(Connection writer, Path file, List<List<String>> migrations) throws SQLException {
        int version;
        try (Statement s = writer.createStatement(); ResultSet rs = s.executeQuery("PRAGMA user_version")) {
            version = rs.getInt(1);
        }
        int latest = migrations.size();
        if (version > latest) {
            throw new MemfasException("cannot open " + file + ": it was written by a newer memfas (schema version "
                    + version + "; this version reads up to " + latest + ")");
        }
        for (int v = version; v < latest; v++) {
            try (Statement s = writer.createStatement()) {
                s.execute("BEGIN IMMEDIATE");
                try {
                    // Re-read under the write lock: another process may have migrated meanwhile.
                    int current;
                    try (ResultSet rs = s.executeQuery("PRAGMA user_version")) {
                        current = rs.getInt(1);
                    }
                    if (current == v) {
                        for (String sql : migrations.get(v)) {
                            s.execute(sql);
                        }
                        s.execute("PRAGMA user_version = " + (v + 1));
                    }
                    s.execute("COMMIT");
                } catch (SQLException | RuntimeException e) {
                    rollbackQuietly(s);
                    throw e;
                }
            }
        }
        if (version == 0 && latest > 0) {
            // A new file: every migration ran, but nothing was migrated. Not news for the user.
            LOG.debug("created {} at schema version {}", file, latest);
        } else if (version < latest) {
            LOG.info("migrated {} from schema version {} to {}", file, version, latest);
        }
    }

    private static VectorSpace readVectorSpace(Connection c) throws SQLException {
        String model = null;
        String dimension = null;
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT key, value FROM store_meta WHERE key IN "
                        + "('vector_model', 'vector_dimension')")) {
            while (rs.next()) {
                if (rs.getString(1).equals("vector_model")) {
                    model = rs.getString(2);
                } else {
                    dimension = rs.getString(2);
                }
            }
        }
        return model == null || dimension == null ? null : new VectorSpace(model, Integer.parseInt(dimension));
    }

    /** The schema version of the open file. */
    public int schemaVersion() {
        return read("read the schema version", c -> {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA user_version")) {
                return rs.getInt(1);
            }
        });
    }

    /** The file this store keeps its data in. */
    public Path file() {
        return file;
    }

    // ---------------------------------------------------------------- memories

    @Override
    public void upsertAll(List<Memory> memories, Embeddings embeddings) {
        Objects.requireNonNull(memories, "memories");
        Objects.requireNonNull(embeddings, "embeddings");
        write("write memories", c -> {
            if (vectorSpace == null) {
                // Another process may have stored the first vectors since this one opened the file.
                vectorSpace = readVectorSpace(c);
            }
            MemoryStore.checkUpsert(memories, embeddings, vectorSpace);
            if (!embeddings.isEmpty() && vectorSpace == null) {
                putMeta(c, "vector_model", embeddings.space().modelId());
                putMeta(c, "vector_dimension", Integer.toString(embeddings.space().dimension()));
            }
            try (PreparedStatement find = c.prepareStatement(
                            "SELECT rowid FROM memories WHERE namespace = ? AND id = ?");
                    PreparedStatement insert = c.prepareStatement("INSERT INTO memories (namespace, id, text, source, "
                            + "kind, scope, tags, author, created_s, created_ns, updated_s, updated_ns, pinned, "
                            + "importance, metadata, expires_s, expires_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            Statement.RETURN_GENERATED_KEYS);
                    PreparedStatement update = c.prepareStatement("UPDATE memories SET text = ?, source = ?, "
                            + "kind = ?, scope = ?, tags = ?, author = ?, created_s = ?, created_ns = ?, "
                            + "updated_s = ?, updated_ns = ?, pinned = ?, importance = ?, metadata = ?, expires_s = ?, "
                            + "expires_ns = ? WHERE rowid = ?");
                    PreparedStatement ftsDelete = c.prepareStatement("DELETE FROM memories_fts WHERE rowid = ?");
                    PreparedStatement ftsInsert = c.prepareStatement(
                            "INSERT INTO memories_fts (rowid, text) VALUES (?, ?)");
                    PreparedStatement vectorPut = c.prepareStatement(
                            "INSERT OR REPLACE INTO vectors (rowid, vector) VALUES (?, ?)");
                    PreparedStatement vectorDelete = c.prepareStatement("DELETE FROM vectors WHERE rowid = ?");
                    PreparedStatement countsDelete = c.prepareStatement("DELETE FROM token_counts WHERE rowid = ?")) {
                for (int i = 0; i < memories.size(); i++) {
                    Memory m = memories.get(i);
                    long rowid = rowid(find, m.namespace(), m.id());
                    if (rowid < 0) {
                        insert.setString(1, m.namespace());
                        insert.setString(2, m.id());
                        bindFields(insert, 3, m);
                        insert.executeUpdate();
                        try (ResultSet keys = insert.getGeneratedKeys()) {
                            keys.next();
                            rowid = keys.getLong(1);
                        }
                    } else {
                        bindFields(update, 1, m);
                        update.setLong(16, rowid);
                        update.executeUpdate();
                        ftsDelete.setLong(1, rowid);
                        ftsDelete.executeUpdate();
                        countsDelete.setLong(1, rowid);
                        countsDelete.executeUpdate();
                    }
                    ftsInsert.setLong(1, rowid);
                    ftsInsert.setString(2, m.text());
                    ftsInsert.executeUpdate();
                    if (!embeddings.isEmpty()) {
                        vectorPut.setLong(1, rowid);
                        vectorPut.setBytes(2, Codec.encodeVector(embeddings.vector(i)));
                        vectorPut.executeUpdate();
                    } else {
                        vectorDelete.setLong(1, rowid);
                        vectorDelete.executeUpdate();
                    }
                }
            }
            for (Memory m : memories) {
                logChange(c, m.namespace(), Kind.MEMORY, m.id());
            }
            return null;
        }, () -> {
            if (!embeddings.isEmpty() && vectorSpace == null) {
                vectorSpace = embeddings.space();
            }
        });
    }

    private static void bindFields(PreparedStatement ps, int at, Memory m) throws SQLException {
        ps.setBytes(at, Codec.encodeText(m.text()));
        ps.setString(at + 1, m.source());
        ps.setString(at + 2, m.kind());
        ps.setString(at + 3, m.scope().toString());
        ps.setString(at + 4, Codec.joinIds(m.tags()));
        ps.setString(at + 5, m.author());
        ps.setLong(at + 6, m.createdAt().getEpochSecond());
        ps.setInt(at + 7, m.createdAt().getNano());
        ps.setLong(at + 8, m.updatedAt().getEpochSecond());
        ps.setInt(at + 9, m.updatedAt().getNano());
        ps.setInt(at + 10, m.pinned() ? 1 : 0);
        ps.setDouble(at + 11, m.importance());
        ps.setBytes(at + 12, Codec.encodeMetadata(m.metadata()));
        if (m.expiresAt() == null) {
            ps.setNull(at + 13, java.sql.Types.INTEGER);
            ps.setNull(at + 14, java.sql.Types.INTEGER);
        } else {
            ps.setLong(at + 13, m.expiresAt().getEpochSecond());
            ps.setInt(at + 14, m.expiresAt().getNano());
        }
    }

    private static long rowid(PreparedStatement find, String namespace, String id) throws SQLException {
        find.setString(1, namespace);
        find.setString(2, id);
        try (ResultSet rs = find.executeQuery()) {
            return rs.next() ? rs.getLong(1) : -1;
        }
    }

    private static StoredMemory readMemory(ResultSet rs) throws SQLException {
        Memory m = new Memory(
                rs.getString(2),
                rs.getString(1),
                Codec.decodeText(rs.getBytes(3)),
                rs.getString(4),
                rs.getString(5),
                Scope.parse(rs.getString(6)),
                Codec.splitIds(rs.getString(7)),
                rs.getString(8),
                Codec.instant(rs.getLong(9), rs.getLong(10)),
                Codec.instant(rs.getLong(11), rs.getLong(12)),
                rs.getInt(13) != 0,
                rs.getDouble(14),
                Codec.decodeMetadata(rs.getBytes(15)),
                expiresAt(rs));
        long lastAccess = rs.getLong(17);
        Instant last = rs.wasNull() ? null : Instant.EPOCH.plus(lastAccess, ChronoUnit.MICROS);
        return new StoredMemory(m, rs.getLong(16), last);
    }

    private static Instant expiresAt(ResultSet rs) throws SQLException {
        long seconds = rs.getLong(18);
        if (rs.wasNull()) {
            return null;
        }
        return Codec.instant(seconds, rs.getLong(19));
    }

    @Override
    public List<StoredMemory> getAll(String namespace, Collection<String> ids) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(ids, "ids");
        List<String> unique = new ArrayList<>(new LinkedHashSet<>(ids));
        if (unique.isEmpty()) {
            return List.of();
        }
        Map<String, StoredMemory> found = read("read memories", c -> {
            Map<String, StoredMemory> out = new HashMap<>();
            for (int from = 0; from < unique.size(); from += IN_CHUNK) {
                List<String> chunk = unique.subList(from, Math.min(unique.size(), from + IN_CHUNK));
                String sql = "SELECT " + MEMORY_COLUMNS + " FROM memories WHERE namespace = ? AND id IN ("
                        + placeholders(chunk.size()) + ")";
                try (PreparedStatement ps = c.prepareStatement(sql)) {
                    ps.setString(1, namespace);
                    for (int i = 0; i < chunk.size(); i++) {
                        ps.setString(i + 2, chunk.get(i));
                    }
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            StoredMemory s = readMemory(rs);
                            out.put(s.memory().id(), s);
                        }
                    }
                }
            }
            return out;
        });
        List<StoredMemory> ordered = new ArrayList<>(found.size());
        for (String id : unique) {
            StoredMemory s = found.get(id);
            if (s != null) {
                ordered.add(s);
            }
        }
        return ordered;
    }

    @Override
    public List<StoredMemory> neighborhood(String namespace, String id, int radius) {
        MemoryStore.checkNeighborhood(namespace, id, radius);
        return read("read a memory's neighbors", c -> {
            long rowid;
            try (PreparedStatement find = c.prepareStatement(
                    "SELECT rowid FROM memories WHERE namespace = ? AND id = ?")) {
                rowid = rowid(find, namespace, id);
            }
            if (rowid < 0) {
                return List.<StoredMemory>of();
            }
            List<StoredMemory> before = new ArrayList<>(radius);
            List<StoredMemory> rest = new ArrayList<>(radius + 1);
            try (PreparedStatement ps = c.prepareStatement("SELECT " + MEMORY_COLUMNS
                    + " FROM memories WHERE namespace = ? AND rowid < ? ORDER BY rowid DESC LIMIT ?")) {
                ps.setString(1, namespace);
                ps.setLong(2, rowid);
                ps.setInt(3, radius);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        before.add(readMemory(rs));
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT " + MEMORY_COLUMNS
                    + " FROM memories WHERE namespace = ? AND rowid >= ? ORDER BY rowid LIMIT ?")) {
                ps.setString(1, namespace);
                ps.setLong(2, rowid);
                ps.setInt(3, radius + 1);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rest.add(readMemory(rs));
                    }
                }
            }
            List<StoredMemory> window = new ArrayList<>(before.size() + rest.size());
            for (int i = before.size() - 1; i >= 0; i--) {
                window.add(before.get(i));
            }
            window.addAll(rest);
            return window;
        });
    }

    @Override
    public int deleteAll(String namespace, Collection<String> ids) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(ids, "ids");
        Set<String> unique = new LinkedHashSet<>(ids);
        return write("delete memories", c -> {
            List<Long> rowids = new ArrayList<>();
            try (PreparedStatement find = c.prepareStatement(
                    "SELECT rowid FROM memories WHERE namespace = ? AND id = ?")) {
                for (String id : unique) {
                    long rowid = rowid(find, namespace, id);
                    if (rowid >= 0) {
                        rowids.add(rowid);
                    }
                }
            }
            deleteRows(c, rowids);
            // Logged whether or not they existed here: another process may hold them still.
            for (String id : unique) {
                logChange(c, namespace, Kind.MEMORY, id);
            }
            return rowids.size();
        }, null);
    }

    @Override
    public List<String> deleteExpired(String namespace, Instant now) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(now, "now");
        List<String> expired = new ArrayList<>();
        write("delete expired memories", c -> {
            List<Long> rowids = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT rowid, id FROM memories WHERE namespace = ? "
                    + "AND expires_s IS NOT NULL AND (expires_s < ? OR (expires_s = ? AND expires_ns <= ?))")) {
                ps.setString(1, namespace);
                ps.setLong(2, now.getEpochSecond());
                ps.setLong(3, now.getEpochSecond());
                ps.setInt(4, now.getNano());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rowids.add(rs.getLong(1));
                        expired.add(rs.getString(2));
                    }
                }
            }
            deleteRows(c, rowids);
            for (String id : expired) {
                logChange(c, namespace, Kind.MEMORY, id);
            }
            return null;
        }, null);
        return List.copyOf(expired);
    }

    private static void deleteRows(Connection c, List<Long> rowids) throws SQLException {
        try (PreparedStatement memory = c.prepareStatement("DELETE FROM memories WHERE rowid = ?");
                PreparedStatement fts = c.prepareStatement("DELETE FROM memories_fts WHERE rowid = ?");
                PreparedStatement vector = c.prepareStatement("DELETE FROM vectors WHERE rowid = ?");
                PreparedStatement counts = c.prepareStatement("DELETE FROM token_counts WHERE rowid = ?")) {
            for (long rowid : rowids) {
                for (PreparedStatement ps : List.of(memory, fts, vector, counts)) {
                    ps.setLong(1, rowid);
                    ps.executeUpdate();
                }
            }
        }
    }

    @Override
    public void forEach(String namespace, MemoryFilter filter, Consumer<? super Memory> action) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(action, "action");
        StringBuilder sql = new StringBuilder("SELECT " + MEMORY_COLUMNS + " FROM memories WHERE namespace = ?");
        List<Object> args = new ArrayList<>();
        args.add(namespace);
        if (filter.since() != null) {
            sql.append(" AND (created_s > ? OR (created_s = ? AND created_ns >= ?))");
            args.add(filter.since().getEpochSecond());
            args.add(filter.since().getEpochSecond());
            args.add((long) filter.since().getNano());
        }
        if (filter.author() != null) {
            sql.append(" AND author = ?");
            args.add(filter.author());
        }
        if (filter.kind() != null) {
            sql.append(" AND kind = ?");
            args.add(filter.kind());
        }
        if (filter.scope() != null) {
            sql.append(" AND scope = ?");
            args.add(filter.scope().toString());
        }
        if (filter.pinnedOnly()) {
            sql.append(" AND pinned = 1");
        }
        List<Memory> matching = read("list memories", c -> {
            List<Memory> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
                bind(ps, args);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Memory m = readMemory(rs).memory();
                        if (filter.test(m)) {
                            out.add(m);
                        }
                    }
                }
            }
            return out;
        });
        // The action runs with no connection held, so it may call back into the store.
        matching.forEach(action);
    }

    @Override
    public long count(String namespace) {
        Objects.requireNonNull(namespace, "namespace");
        return read("count memories", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM memories WHERE namespace = ?")) {
                ps.setString(1, namespace);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.getLong(1);
                }
            }
        });
    }

    /** How many of one namespace's memories have a vector. */
    public long vectorCount(String namespace) {
        Objects.requireNonNull(namespace, "namespace");
        return read("count vectors", c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT count(*) FROM vectors v JOIN memories m ON m.rowid = v.rowid WHERE m.namespace = ?")) {
                ps.setString(1, namespace);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.getLong(1);
                }
            }
        });
    }

    @Override
    public Set<String> namespaces() {
        return read("list namespaces", c -> {
            Set<String> out = new TreeSet<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                    "SELECT DISTINCT namespace FROM memories UNION SELECT DISTINCT namespace FROM triggers")) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            return Set.copyOf(out);
        });
    }

    @Override
    public void recordAccess(String namespace, Collection<String> ids, Instant at) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(ids, "ids");
        Objects.requireNonNull(at, "at");
        if (ids.isEmpty()) {
            return;
        }
        Map<String, Integer> occurrences = new LinkedHashMap<>();
        for (String id : ids) {
            occurrences.merge(Objects.requireNonNull(id, "id"), 1, Integer::sum);
        }
        long micros = ChronoUnit.MICROS.between(Instant.EPOCH, at);
        write("record access", c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE memories SET access_count = access_count + ?, "
                    + "last_access_us = max(coalesce(last_access_us, ?), ?) WHERE namespace = ? AND id = ?")) {
                for (Map.Entry<String, Integer> e : occurrences.entrySet()) {
                    ps.setInt(1, e.getValue());
                    ps.setLong(2, micros);
                    ps.setLong(3, micros);
                    ps.setString(4, namespace);
                    ps.setString(5, e.getKey());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            return null;
        }, null);
    }

    // ---------------------------------------------------------------- token counts

    @Override
    public void putTokenCounts(String tokenizerKey, Collection<TokenCount> counts) {
        Objects.requireNonNull(tokenizerKey, "tokenizerKey");
        Objects.requireNonNull(counts, "counts");
        if (counts.isEmpty()) {
            return;
        }
        write("cache token counts", c -> {
            // Kept only where the row still holds what was counted: a concurrent replace wins.
            try (PreparedStatement ps = c.prepareStatement("INSERT OR REPLACE INTO token_counts (rowid, tokenizer, "
                    + "tokens) SELECT rowid, ?, ? FROM memories WHERE namespace = ? AND id = ? AND text = ? "
                    + "AND source = ? AND created_s = ? AND created_ns = ?")) {
                for (TokenCount count : counts) {
                    Memory m = count.memory();
                    if (m.id() == null || m.createdAt() == null) {
                        continue;
                    }
                    ps.setString(1, tokenizerKey);
                    ps.setInt(2, count.tokens());
                    ps.setString(3, m.namespace());
                    ps.setString(4, m.id());
                    ps.setBytes(5, Codec.encodeText(m.text()));
                    ps.setString(6, m.source());
                    ps.setLong(7, m.createdAt().getEpochSecond());
                    ps.setInt(8, m.createdAt().getNano());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            return null;
        }, null);
    }

    @Override
    public Map<String, Integer> tokenCounts(String namespace, String tokenizerKey, Collection<String> ids) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(tokenizerKey, "tokenizerKey");
        Objects.requireNonNull(ids, "ids");
        List<String> unique = new ArrayList<>(new LinkedHashSet<>(ids));
        if (unique.isEmpty()) {
            return Map.of();
        }
        return read("read token counts", c -> {
            Map<String, Integer> out = new HashMap<>();
            for (int from = 0; from < unique.size(); from += IN_CHUNK) {
                List<String> chunk = unique.subList(from, Math.min(unique.size(), from + IN_CHUNK));
                try (PreparedStatement ps = c.prepareStatement("SELECT m.id, t.tokens FROM token_counts t "
                        + "JOIN memories m ON m.rowid = t.rowid WHERE t.tokenizer = ? AND m.namespace = ? "
                        + "AND m.id IN (" + placeholders(chunk.size()) + ")")) {
                    ps.setString(1, tokenizerKey);
                    ps.setString(2, namespace);
                    for (int i = 0; i < chunk.size(); i++) {
                        ps.setString(i + 3, chunk.get(i));
                    }
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            out.put(rs.getString(1), rs.getInt(2));
                        }
                    }
                }
            }
            return out;
        });
    }

    // ---------------------------------------------------------------- lexical search

    @Override
    public List<LexicalHit> searchLexical(String namespace, String query, int limit) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(query, "query");
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        String match = FtsQuery.of(query);
        if (match.isEmpty()) {
            return List.of();
        }
        return read("search memories", c -> {
            List<LexicalHit> hits = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT m.id, bm25(memories_fts) AS b "
                    + "FROM memories_fts JOIN memories m ON m.rowid = memories_fts.rowid "
                    + "WHERE memories_fts MATCH ? AND m.namespace = ? ORDER BY b, m.id LIMIT ?")) {
                ps.setString(1, match);
                ps.setString(2, namespace);
                ps.setInt(3, limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        double score = -rs.getDouble(2);
                        if (score > 0 && Double.isFinite(score)) {
                            hits.add(new LexicalHit(rs.getString(1), score));
                        }
                    }
                }
            }
            return hits;
        });
    }

    // ---------------------------------------------------------------- vectors

    @Override
    public Optional<VectorSpace> vectorSpace() {
        ensureOpen();
        if (vectorSpace == null) {
            // Another process may have stored the first vectors since this one opened the file.
            VectorSpace stored = read("read the vector space", SqliteMemoryStore::readVectorSpace);
            if (stored != null) {
                vectorSpace = stored;
            }
        }
        return Optional.ofNullable(vectorSpace);
    }

    @Override
    public void forEachVector(String namespace, VectorConsumer action) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(action, "action");
        VectorSpace space = vectorSpace;
        if (space == null) {
            return;
        }
        // Streamed from the cursor: a store of 100,000 x 384 holds 150 MB of vectors, which should not be held twice.
        read("read vectors", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT m.id, v.vector FROM vectors v "
                    + "JOIN memories m ON m.rowid = v.rowid WHERE m.namespace = ?")) {
                ps.setString(1, namespace);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        action.accept(rs.getString(1), Codec.decodeVector(rs.getBytes(2), space.dimension()));
                    }
                }
            }
            return null;
        });
    }

    /**
     * Replaces every stored vector with the given embedder's, in one transaction, and records the embedder's model
     * as the store's vector space: the way to move a store to another embedding model. Memories are embedded in
     * batches of {@code batchSize}; writes by other threads wait until it is done.
     *
     * @return how many memories were embedded
     * @throws MemfasException if embedding or writing fails; the store keeps its old vectors
     */
    public int reembed(Embedder embedder, int batchSize) {
        Objects.requireNonNull(embedder, "embedder");
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be positive: " + batchSize);
        }
        VectorSpace space = new VectorSpace(embedder.modelId(), embedder.dimension());
        return write("re-embed", c -> {
            List<Long> rowids = new ArrayList<>();
            List<String> texts = new ArrayList<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT rowid, text FROM memories")) {
                while (rs.next()) {
                    rowids.add(rs.getLong(1));
                    texts.add(Codec.decodeText(rs.getBytes(2)));
                }
            }
            try (Statement s = c.createStatement()) {
                s.execute("DELETE FROM vectors");
            }
            try (PreparedStatement put = c.prepareStatement("INSERT INTO vectors (rowid, vector) VALUES (?, ?)")) {
                for (int from = 0; from < texts.size(); from += batchSize) {
                    List<String> batch = texts.subList(from, Math.min(texts.size(), from + batchSize));
                    List<float[]> vectors = Embeddings.embed(embedder, batch, "rows " + from + " to "
                            + (from + batch.size() - 1));
                    for (int i = 0; i < batch.size(); i++) {
                        put.setLong(1, rowids.get(from + i));
                        put.setBytes(2, Codec.encodeVector(vectors.get(i)));
                        put.addBatch();
                    }
                    put.executeBatch();
                }
            }
            putMeta(c, "vector_model", space.modelId());
            putMeta(c, "vector_dimension", Integer.toString(space.dimension()));
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                    "SELECT DISTINCT namespace FROM memories")) {
                List<String> namespaces = new ArrayList<>();
                while (rs.next()) {
                    namespaces.add(rs.getString(1));
                }
                for (String ns : namespaces) {
                    logChange(c, ns, Kind.NAMESPACE, null);
                }
            }
            return texts.size();
        }, () -> vectorSpace = space);
    }

    private static void putMeta(Connection c, String key, String value) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")) {
            ps.setString(1, key);
            ps.setString(2, value);
            ps.executeUpdate();
        }
    }

    // ---------------------------------------------------------------- the change log (SharedStore)

    /** Marks the changes written through this object, which its own curator does not need to read back. */
    private final String origin = java.util.UUID.randomUUID().toString();

    private void logChange(Connection c, String namespace, Kind kind, String memoryId) throws SQLException {
        ChangeLog.append(c, origin, namespace, kind, memoryId);
    }

    @Override
    public long lastChange() {
        return read("read the last change", ChangeLog::last);
    }

    @Override
    public Changes changesSince(long after, int limit) {
        if (after < 0) {
            throw new IllegalArgumentException("change number must not be negative: " + after);
        }
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        return read("read changes", c -> ChangeLog.since(c, after, limit, origin));
    }

    @Override
    public Map<String, float[]> vectors(String namespace, Collection<String> ids) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(ids, "ids");
        Set<String> unique = new LinkedHashSet<>(ids);
        if (unique.isEmpty()) {
            return Map.of();
        }
        VectorSpace space = vectorSpace().orElse(null);
        if (space == null) {
            return Map.of();
        }
        return read("read vectors", c -> {
            Map<String, float[]> out = new HashMap<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT v.vector FROM memories m JOIN vectors v"
                    + " ON v.rowid = m.rowid WHERE m.namespace = ? AND m.id = ?")) {
                for (String id : unique) {
                    ps.setString(1, namespace);
                    ps.setString(2, id);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) {
                            out.put(id, Codec.decodeVector(rs.getBytes(1), space.dimension()));
                        }
                    }
                }
            }
            return out;
        });
    }

    // ---------------------------------------------------------------- triggers

    @Override
    public void putTrigger(Trigger trigger) {
        Objects.requireNonNull(trigger, "trigger");
        write("write trigger", c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO triggers "
                    + "(namespace, keyword_key, keyword, hint, memory_ids, seq) "
                    + "VALUES (?, ?, ?, ?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM triggers)) "
                    + "ON CONFLICT (namespace, keyword_key) DO UPDATE SET keyword = excluded.keyword, "
                    + "hint = excluded.hint, memory_ids = excluded.memory_ids")) {
                ps.setString(1, trigger.namespace());
                ps.setString(2, trigger.keyword().toLowerCase(Locale.ROOT));
                ps.setString(3, trigger.keyword());
                ps.setBytes(4, Codec.encodeText(trigger.hint()));
                ps.setString(5, Codec.joinIds(trigger.memoryIds()));
                ps.executeUpdate();
            }
            logChange(c, trigger.namespace(), Kind.TRIGGERS, null);
            return null;
        }, null);
    }

    @Override
    public boolean removeTrigger(String namespace, String keyword) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(keyword, "keyword");
        return write("remove trigger", c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "DELETE FROM triggers WHERE namespace = ? AND keyword_key = ?")) {
                ps.setString(1, namespace);
                ps.setString(2, keyword.strip().toLowerCase(Locale.ROOT));
                boolean removed = ps.executeUpdate() > 0;
                if (removed) {
                    logChange(c, namespace, Kind.TRIGGERS, null);
                }
                return removed;
            }
        }, null);
    }

    @Override
    public List<Trigger> triggers(String namespace) {
        Objects.requireNonNull(namespace, "namespace");
        return read("read triggers", c -> {
            List<Trigger> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT keyword, hint, memory_ids FROM triggers WHERE namespace = ? ORDER BY seq")) {
                ps.setString(1, namespace);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(new Trigger(rs.getString(1), Codec.decodeText(rs.getBytes(2)),
                                Codec.splitIds(rs.getString(3)), namespace));
                    }
                }
            }
            return List.copyOf(out);
        });
    }

    // ---------------------------------------------------------------- key-value state

    /**
     * Saves a value under a key in a namespace, replacing any value there.
     *
     * @throws IllegalArgumentException if the key is blank or longer than 512 chars
     */
    public void saveState(String namespace, String key, String value) {
        Objects.requireNonNull(namespace, "namespace");
        checkKey(key);
        Objects.requireNonNull(value, "value");
        long now = Instant.now().getEpochSecond();
        write("save state", c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO state (namespace, key, value, updated_s) "
                    + "VALUES (?, ?, ?, ?) ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, "
                    + "updated_s = excluded.updated_s")) {
                ps.setString(1, namespace);
                ps.setString(2, key);
                ps.setBytes(3, Codec.encodeText(value));
                ps.setLong(4, now);
                ps.executeUpdate();
            }
            return null;
        }, null);
    }

    /** The value saved under a key, if any. */
    public Optional<String> loadState(String namespace, String key) {
        Map<String, String> found = queryState(namespace, "key = ?", Objects.requireNonNull(key, "key"));
        return Optional.ofNullable(found.get(key));
    }

    /** Deletes a key; returns whether it existed. */
    public boolean deleteState(String namespace, String key) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(key, "key");
        return write("delete state", c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM state WHERE namespace = ? AND key = ?")) {
                ps.setString(1, namespace);
                ps.setString(2, key);
                return ps.executeUpdate() > 0;
            }
        }, null);
    }

    /** Every key of a namespace, sorted. */
    public List<String> listState(String namespace) {
        return List.copyOf(queryState(namespace, "1 = 1", null).keySet());
    }

    /**
     * The keys and values of a namespace whose key matches a glob ({@code *} any run, {@code ?} one character,
     * {@code [abc]} a class; case-sensitive), sorted by key.
     */
    public Map<String, String> searchState(String namespace, String glob) {
        return queryState(namespace, "key GLOB ?", Objects.requireNonNull(glob, "glob"));
    }

    private Map<String, String> queryState(String namespace, String condition, String arg) {
        Objects.requireNonNull(namespace, "namespace");
        return read("read state", c -> {
            Map<String, String> out = new LinkedHashMap<>();
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT key, value FROM state WHERE namespace = ? AND " + condition + " ORDER BY key")) {
                ps.setString(1, namespace);
                if (arg != null) {
                    ps.setString(2, arg);
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.put(rs.getString(1), Codec.decodeText(rs.getBytes(2)));
                    }
                }
            }
            return out;
        });
    }

    private static void checkKey(String key) {
        Objects.requireNonNull(key, "key");
        if (key.isBlank() || key.length() > 512) {
            throw new IllegalArgumentException("state key must be 1 to 512 chars and not blank: '" + key + "'");
        }
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
        Path abs = target.toAbsolutePath();
        if (Files.exists(abs)) {
            throw new MemfasException("cannot back up " + file + " to " + abs + ": the target already exists");
        }
        ensureOpen();
        // A connection of its own: VACUUM INTO reads one snapshot and writes only the target, so neither the
        // readers (query_only) nor the writer lock are involved, and writes go on meanwhile.
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                PreparedStatement ps = c.prepareStatement("VACUUM INTO ?")) {
            ps.setString(1, abs.toString());
            ps.execute();
        } catch (SQLException e) {
            throw failure("back up to " + abs, e);
        }
    }

    /**
     * Runs {@code PRAGMA integrity_check} on a fresh connection; returns {@code "ok"} for a sound file, else SQLite's
     * findings. (A long-lived connection's FTS5 module may check against structure it cached before other connections
     * wrote, and report a sound index as malformed.)
     */
    public String integrityCheck() {
        ensureOpen();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
            List<String> lines = new ArrayList<>();
            while (rs.next()) {
                lines.add(rs.getString(1));
            }
            return String.join("\n", lines);
        } catch (SQLException e) {
            throw failure("check integrity", e);
        }
    }

    // ---------------------------------------------------------------- plumbing

    @FunctionalInterface
    private interface SqlWork<T> {
        T run(Connection c) throws SQLException;
    }

    private <T> T read(String action, SqlWork<T> work) {
        ensureOpen();
        Connection c;
        try {
            c = readers.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MemfasException("interrupted while waiting to " + action + " in " + file, e);
        }
        try {
            ensureOpen();
            return work.run(c);
        } catch (SQLException e) {
            throw failure(action, e);
        } finally {
            readers.add(c);
        }
    }

    /** Runs work in one IMMEDIATE transaction on the writer; {@code afterCommit} updates cached state. */
    private <T> T write(String action, SqlWork<T> work, Runnable afterCommit) {
        ensureOpen();
        writeLock.lock();
        try {
            ensureOpen();
            try (Statement s = writer.createStatement()) {
                s.execute("BEGIN IMMEDIATE");
                try {
                    T result = work.run(writer);
                    s.execute("COMMIT");
                    if (afterCommit != null) {
                        afterCommit.run();
                    }
                    return result;
                } catch (SQLException | RuntimeException e) {
                    rollbackQuietly(s);
                    throw e;
                }
            }
        } catch (SQLException e) {
            throw failure(action, e);
        } finally {
            writeLock.unlock();
        }
    }

    private MemfasException failure(String action, SQLException e) {
        int code = e.getErrorCode() & 0xFF;
        String why = switch (code) {
            case SQLITE_BUSY, SQLITE_LOCKED -> "the database is locked by another connection or process "
                    + "(waited the busy timeout of " + busyTimeout.toMillis() + " ms)";
            case SQLITE_NOTADB -> "the file is not a SQLite database";
            case SQLITE_CORRUPT -> "the database file is corrupt or truncated";
            case SQLITE_CANTOPEN -> "the file cannot be opened or created (check that the directory exists and is "
                    + "writable)";
            case SQLITE_READONLY -> "the database is read-only (check the permissions of the file and its directory)";
            case SQLITE_FULL -> "the disk is full";
            case SQLITE_IOERR -> "an I/O error occurred (" + e.getMessage() + ")";
            default -> e.getMessage();
        };
        return new MemfasException("cannot " + action + " in " + file + ": " + why, e);
    }

    private static String placeholders(int n) {
        return String.join(", ", java.util.Collections.nCopies(n, "?"));
    }

    private static void bind(PreparedStatement ps, List<Object> args) throws SQLException {
        for (int i = 0; i < args.size(); i++) {
            Object a = args.get(i);
            if (a instanceof Long l) {
                ps.setLong(i + 1, l);
            } else {
                ps.setString(i + 1, (String) a);
            }
        }
    }

    private static void rollbackQuietly(Statement s) {
        try {
            s.execute("ROLLBACK");
        } catch (SQLException ignored) {
            // The transaction may already be gone (SQLite rolls back on some errors); nothing is left to undo.
        }
    }

    private static void closeQuietly(Connection c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (SQLException e) {
            LOG.warn("cannot close a connection: {}", e.toString());
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("memory store is closed: " + file);
        }
    }

    /** Closes every connection, waiting briefly for readers in use. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        writeLock.lock();
        try {
            closeQuietly(writer);
        } finally {
            writeLock.unlock();
        }
        for (int i = 0; i < allReaders.size(); i++) {
            try {
                Connection c = readers.poll(busyTimeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
                closeQuietly(c);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
    }
}
