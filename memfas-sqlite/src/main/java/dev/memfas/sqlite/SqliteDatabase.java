package dev.memfas.sqlite;

import dev.memfas.MemfasException;
import dev.memfas.sql.SqlTransactions;
import dev.memfas.sql.SqlWork;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;

/**
 * The connections to one SQLite file and the transactions over them: one writer connection used under a lock, a
 * small pool of read-only reader connections, and SQLite's errors turned into {@link MemfasException}s that name the
 * file and the problem. The file is in WAL mode: one writer and any number of readers at once, readers never blocked
 * by the writer. Thread-safe.
 */
final class SqliteDatabase implements SqlTransactions, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SqliteMemoryStore.class);
    private static final int SQLITE_BUSY = 5;
    private static final int SQLITE_LOCKED = 6;
    private static final int SQLITE_READONLY = 8;
    private static final int SQLITE_IOERR = 10;
    private static final int SQLITE_CORRUPT = 11;
    private static final int SQLITE_FULL = 13;
    private static final int SQLITE_CANTOPEN = 14;
    private static final int SQLITE_NOTADB = 26;

    private final Path file;
    private final Duration busyTimeout;
    private final SqliteMemoryStore.Durability durability;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final Connection writer;
    private final BlockingQueue<Connection> readers;
    private final List<Connection> allReaders = new ArrayList<>();
    private volatile boolean closed;

    /**
     * Opens the file (creating it if missing), brings its schema to the latest version and opens the readers.
     *
     * @throws MemfasException if the directory is missing, the file is not a sound SQLite database, was written by a
     *     newer schema, or cannot be opened
     */
    SqliteDatabase(Path file, Duration busyTimeout, SqliteMemoryStore.Durability durability, int readConnections) {
        this.file = file;
        this.busyTimeout = busyTimeout;
        this.durability = durability;
        this.readers = new ArrayBlockingQueue<>(readConnections);
        Connection w = null;
        try {
            Path parent = file.getParent();
            if (parent != null && !Files.isDirectory(parent)) {
                throw new MemfasException("cannot open " + file + ": the directory " + parent + " does not exist");
            }
            createOwnerOnly(file);
            w = connect(false);
            this.writer = w;
            Schema.migrate(writer, file, Schema.MIGRATIONS);
            for (int i = 0; i < readConnections; i++) {
                Connection r = connect(true);
                allReaders.add(r);
                readers.add(r);
            }
        } catch (SQLException e) {
            closeQuietly(w);
            allReaders.forEach(SqliteDatabase::closeQuietly);
            throw failure("open", e);
        } catch (RuntimeException e) {
            closeQuietly(w);
            allReaders.forEach(SqliteDatabase::closeQuietly);
            throw e;
        }
    }

    Path file() {
        return file;
    }

    /**
     * Creates a missing database file empty and the owner's alone ({@code 0600}) on a POSIX file system: it holds
     * every memory, and SQLite gives its WAL and shared-memory files the database file's mode. An existing file keeps
     * the mode its owner gave it.
     */
    private static void createOwnerOnly(Path file) {
        if (Files.exists(file)) {
            return;
        }
        try {
            if (file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                Files.createFile(file,
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } else {
                Files.createFile(file);
            }
        } catch (FileAlreadyExistsException e) {
            // created meanwhile by another process: its mode is that process's choice
        } catch (IOException e) {
            throw new MemfasException("cannot open " + file + ": the file cannot be opened or created ("
                    + e.getClass().getSimpleName() + ")", e);
        }
    }

    private Connection connect(boolean readOnly) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout((int) busyTimeout.toMillis());
        config.setSynchronous(durability == SqliteMemoryStore.Durability.FULL
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

    /**
     * A connection of its own, outside the pool and the writer's lock, for work that reads one snapshot or must not
     * see cached structure: a backup, an integrity check.
     */
    Connection openSeparate() throws SQLException {
        ensureOpen();
        return DriverManager.getConnection("jdbc:sqlite:" + file);
    }

    /** Runs work on a reader connection, waiting for one to be free. */
    @Override
    public <T> T read(String action, SqlWork<T> work) {
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

    /** Runs work in one IMMEDIATE transaction on the writer. */
    @Override
    public <T> T write(String action, SqlWork<T> work) {
        return write(action, work, null);
    }

    /** Runs work in one IMMEDIATE transaction on the writer; {@code afterCommit} (if not null) updates cached state. */
    <T> T write(String action, SqlWork<T> work, Runnable afterCommit) {
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

    /** SQLite's error as a {@link MemfasException} that says what could not be done, in which file, and why. */
    /**
     * Writes a consistent copy of the file to {@code target} ({@code VACUUM INTO}) while the database stays in use.
     *
     * @throws MemfasException if the target exists or cannot be written
     */
    void backupTo(Path target) {
        Path abs = target.toAbsolutePath();
        if (Files.exists(abs)) {
            throw new MemfasException("cannot back up " + file() + " to " + abs + ": the target already exists");
        }
        try {
            // VACUUM INTO writes into an empty file as into a new one, and keeps its mode.
            createOwnerOnly(abs);
        } catch (MemfasException e) {
            throw new MemfasException("cannot back up " + file() + " to " + abs + ": " + e.getMessage(), e);
        }
        // A connection of its own: VACUUM INTO reads one snapshot and writes only the target, so neither the
        // readers (query_only) nor the writer lock are involved, and writes go on meanwhile.
        try (Connection c = openSeparate(); PreparedStatement ps = c.prepareStatement("VACUUM INTO ?")) {
            ps.setString(1, abs.toString());
            ps.execute();
        } catch (SQLException e) {
            try {
                Files.deleteIfExists(abs);
            } catch (IOException ignored) {
                // the failure below says what went wrong; a leftover empty file is the lesser harm
            }
            throw failure("back up to " + abs, e);
        }
    }

    /** {@code PRAGMA integrity_check} on a fresh connection: {@code "ok"}, or SQLite's findings. */
    String integrityCheck() {
        try (Connection c = openSeparate();
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

    MemfasException failure(String action, SQLException e) {
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

    static void rollbackQuietly(Statement s) {
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

    @Override
    public void ensureOpen() {
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
