package dev.memfas.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Listens on {@value ChangeLog#CHANNEL}, which every commit with changes notifies, on a connection and a daemon thread
 * of its own, started with the first listener; and tells the listeners, once for each burst of notifications. A lost
 * connection is opened again, after a pause that grows from 1 s to 30 s; meanwhile nothing is told, and turns catch
 * up as they always do, from the change log.
 */
final class ChangeNotifications implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresMemoryStore.class);
    /** How long one wait for notifications lasts, so that closing is noticed. */
    private static final int POLL_MILLIS = 500;
    private static final Duration MAX_PAUSE = Duration.ofSeconds(30);

    private final Database db;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private Thread thread;
    private volatile Connection connection;
    private volatile boolean closed;

    ChangeNotifications(Database db) {
        this.db = db;
    }

    /** Adds a listener, starting to listen if it is the first; the handle removes it. */
    synchronized AutoCloseable add(Runnable listener) {
        listeners.add(listener);
        if (thread == null && !closed) {
            thread = new Thread(this::listen, "memfas-postgres-changes");
            thread.setDaemon(true);
            thread.start();
        }
        return () -> listeners.remove(listener);
    }

    private void listen() {
        long pause = 1000;
        while (!closed) {
            try (Connection c = db.dedicated("listen for changes")) {
                connection = c;
                try (Statement s = c.createStatement()) {
                    s.execute("LISTEN " + ChangeLog.CHANNEL);
                }
                // Commits before LISTEN took effect were not told: a listener catches up on them now.
                tell();
                pause = 1000;
                PGConnection pg = c.unwrap(PGConnection.class);
                while (!closed) {
                    PGNotification[] news = pg.getNotifications(POLL_MILLIS);
                    if (news != null && news.length > 0) {
                        tell();
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (closed) {
                    return;
                }
                LOG.debug("listening for changes in {} failed, again in {} ms: {}", db.where(), pause, e.toString());
                try {
                    Thread.sleep(pause);
                } catch (InterruptedException ie) {
                    return;
                }
                pause = Math.min(pause * 2, MAX_PAUSE.toMillis());
            } finally {
                connection = null;
            }
        }
    }

    private void tell() {
        for (Runnable listener : listeners) {
            try {
                listener.run();
            } catch (RuntimeException e) {
                LOG.warn("a change listener failed: {}", e.toString());
            }
        }
    }

    /** Stops listening: closes the connection, and the thread ends within one poll. */
    @Override
    public synchronized void close() {
        closed = true;
        Database.closeQuietly(connection);
        if (thread != null) {
            thread.interrupt();
        }
    }
}
