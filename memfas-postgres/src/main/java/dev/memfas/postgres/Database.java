package dev.memfas.postgres;

import dev.memfas.MemfasException;
import dev.memfas.sql.SqlWork;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.postgresql.PGStatement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connections to one PostgreSQL database and the transactions over them, and PostgreSQL's errors turned into
 * {@link MemfasException}s that name the database and the problem. Connections come from the caller's
 * {@link DataSource} (its pool), or from a small pool of this object's own over a JDBC URL. A connection that failed
 * is dropped, never reused: after the server comes back, the next call connects again. Thread-safe.
 */
final class Database implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresMemoryStore.class);
    /** How often a transaction that lost a deadlock or a serialization conflict is run again. */
    private static final int ATTEMPTS = 4;

    private final DataSource source;
    private final String where;
    private final BlockingQueue<Connection> idle;
    private final int maxOwn;
    private final Duration connectionWait;
    private final List<Connection> own = new ArrayList<>();
    /** Transactions PostgreSQL aborted for a deadlock or a serialization conflict, each run again or failed. */
    private final java.util.concurrent.atomic.AtomicLong conflictsLost = new java.util.concurrent.atomic.AtomicLong();
    private volatile boolean closed;

    /**
     * @param source where connections come from
     * @param where the database as messages name it (never with a password)
     * @param pooled whether {@code source} is a pool of the caller's (each connection is closed after use) or opens a
     *     new connection each time (this object keeps up to {@code maxOwn} of them)
     */
    Database(DataSource source, String where, boolean pooled, int maxOwn, Duration connectionWait) {
        this.source = source;
        this.where = where;
        this.idle = pooled ? null : new LinkedBlockingQueue<>();
        this.maxOwn = maxOwn;
        this.connectionWait = connectionWait;
    }

    /** Connections borrowed from the application's pool, each closed (given back) after use. */
    static Database overPool(DataSource pool, String where, Duration connectionWait) {
        return new Database(pool, where, true, 0, connectionWait);
    }

    /** Connections of this object's own to a URL, at most {@code max}; {@code suffix} follows the URL in messages. */
    static Database overUrl(PostgresUrl url, String suffix, int max, Duration connectionWait) {
        return new Database(url.dataSource(), url.display() + suffix, false, max, connectionWait);
    }

    String where() {
        return where;
    }

    /**
     * Runs work on a connection in auto-commit mode: each statement its own transaction. A read whose connection
     * turns out to be lost (kept idle across a server restart or a failover) is run once more on a new one: reading
     * twice changes nothing.
     */
    <T> T read(String action, SqlWork<T> work) {
        for (int attempt = 1; ; attempt++) {
            Connection c = borrow(action);
            boolean broken = true;
            try {
                T result = work.run(c);
                broken = false;
                return result;
            } catch (SQLException e) {
                broken = isConnectionFailure(e);
                if (broken && attempt == 1) {
                    LOG.debug("{} in {}: the connection was lost ({}), again on a new one", action, where,
                            e.getMessage());
                    continue;
                }
                throw failure(action, e);
            } catch (RuntimeException e) {
                broken = false;
                throw e;
            } finally {
                release(c, broken);
            }
        }
    }

    /**
     * Runs work in one transaction, again (up to {@value #ATTEMPTS} times in all) if PostgreSQL aborted it for a
     * deadlock or a serialization conflict, which undoes everything it did.
     */
    <T> T write(String action, SqlWork<T> work) {
        for (int attempt = 1; ; attempt++) {
            Connection c = borrow(action);
            boolean broken = true;
            try {
                c.setAutoCommit(false);
                T result;
                try {
                    result = work.run(c);
                    c.commit();
                } catch (SQLException | RuntimeException e) {
                    c.rollback();
                    throw e;
                } finally {
                    c.setAutoCommit(true);
                }
                broken = false;
                return result;
            } catch (SQLException e) {
                broken = isConnectionFailure(e);
                if (!broken && isRetryable(e)) {
                    conflictsLost.incrementAndGet();
                }
                if (!broken && isRetryable(e) && attempt < ATTEMPTS) {
                    LOG.debug("{} in {}: attempt {} lost a conflict ({}), again", action, where, attempt, e.getSQLState());
                    continue;
                }
                throw failure(action, e);
            } catch (RuntimeException e) {
                broken = false;
                throw e;
            } finally {
                release(c, broken);
            }
        }
    }

    /** How many transactions lost a deadlock or a serialization conflict so far. */
    long conflictsLost() {
        return conflictsLost.get();
    }

    /** A connection for work that keeps it (listening for notifications); the caller closes it. */
    Connection dedicated(String action) {
        ensureOpen();
        try {
            return source.getConnection();
        } catch (SQLException e) {
            throw failure(action, e);
        }
    }

    private Connection borrow(String action) {
        ensureOpen();
        try {
            if (idle == null) {
                return source.getConnection();
            }
            Connection c = idle.poll();
            if (c != null) {
                return c;
            }
            synchronized (own) {
                if (own.size() < maxOwn) {
                    c = source.getConnection();
                    own.add(c);
                    return c;
                }
            }
            c = idle.poll(connectionWait.toMillis(), TimeUnit.MILLISECONDS);
            if (c == null) {
                throw new MemfasException("cannot " + action + " in " + where + ": all " + maxOwn
                        + " connections stayed busy for " + connectionWait.toMillis() + " ms");
            }
            return c;
        } catch (SQLException e) {
            throw failure(action, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MemfasException("interrupted while waiting to " + action + " in " + where, e);
        }
    }

    private void release(Connection c, boolean broken) {
        if (idle == null) {
            closeQuietly(c);
            return;
        }
        if (broken || closed) {
            synchronized (own) {
                own.remove(c);
                if (broken) {
                    // A lost connection says the server went away (restarted, failed over): those opened before it
                    // are lost too, so none of them is lent again.
                    Connection stale;
                    while ((stale = idle.poll()) != null) {
                        own.remove(stale);
                        closeQuietly(stale);
                    }
                }
            }
            closeQuietly(c);
        } else {
            idle.add(c);
        }
    }

    /**
     * Asks for the statement's results in PostgreSQL's binary format from its first execution: {@code bytea} then
     * crosses the network as its bytes, where the text format sends twice as many hex digits and the driver decodes
     * them. For the statements that read vectors and memories' text.
     */
    static PreparedStatement binary(PreparedStatement ps) throws SQLException {
        if (ps.isWrapperFor(PGStatement.class)) { // a pool's proxy gives the driver's statement
            ps.unwrap(PGStatement.class).setPrepareThreshold(-1);
        }
        return ps;
    }

    /** Whether the connection is lost: class 08 (connection exception) or 57P (the server shut down). */
    static boolean isConnectionFailure(SQLException e) {
        String state = e.getSQLState();
        return state == null || state.startsWith("08") || state.startsWith("57P");
    }

    /** A deadlock (40P01) or a serialization failure (40001): the transaction was undone and may run again. */
    private static boolean isRetryable(SQLException e) {
        return "40P01".equals(e.getSQLState()) || "40001".equals(e.getSQLState());
    }

    /** PostgreSQL's error as a {@link MemfasException} that says what could not be done, where, and why. */
    MemfasException failure(String action, SQLException e) {
        String why = isConnectionFailure(e)
                ? "the server cannot be reached or closed the connection (" + e.getMessage()
                        + "); the next call connects again"
                : e.getMessage() + " (SQL state " + e.getSQLState() + ")";
        return new MemfasException("cannot " + action + " in " + where + ": " + why, e);
    }

    static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            LOG.debug("cannot close a connection: {}", e.toString());
        }
    }

    void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("memory store is closed: " + where);
        }
    }

    boolean isClosed() {
        return closed;
    }

    /** Closes this object's own idle connections; those in use are closed as they come back. Idempotent. */
    @Override
    public void close() {
        closed = true;
        if (idle != null) {
            synchronized (own) {
                Connection c;
                while ((c = idle.poll()) != null) {
                    own.remove(c);
                    closeQuietly(c);
                }
            }
        }
    }
}
