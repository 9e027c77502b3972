package dev.memfas.sql;

import java.sql.SQLException;

/**
 * How a store runs a transaction: each store keeps its own connections, retries and error messages, and hands the
 * shared tables this. Implementations turn a {@link SQLException} into a {@link dev.memfas.MemfasException} that names
 * the action.
 */
public interface SqlTransactions {
    /** Runs {@code work} in a read-only transaction; a store may read a replica a little behind its last write. */
    <T> T read(String action, SqlWork<T> work);

    /** Checks the store is open; throws {@link dev.memfas.MemfasException} saying so if it was closed. */
    void ensureOpen();

    /**
     * Runs {@code work} in a read-only transaction whose statements may stream rows through a cursor; {@link #read}
     * unless a store's cursors need more.
     */
    default <T> T readCursor(String action, SqlWork<T> work) {
        return read(action, work);
    }

    /**
     * Runs {@code work} in a read-only transaction on the primary: it sees every write this store committed;
     * {@link #read} for a store that reads no replica.
     */
    default <T> T readPrimary(String action, SqlWork<T> work) {
        return read(action, work);
    }

    /** Runs {@code work} in one write transaction, retried as the store retries its writes. */
    <T> T write(String action, SqlWork<T> work);
}
