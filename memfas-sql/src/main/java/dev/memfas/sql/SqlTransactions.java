package dev.memfas.sql;

import dev.memfas.spi.SharedStore.Kind;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

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

    /** Runs {@code work} in a read-only transaction whose statements may stream rows through a cursor. */
    <T> T readCursor(String action, SqlWork<T> work);

    /** Runs {@code work} in a read-only transaction on the primary: it sees every write this store committed. */
    <T> T readPrimary(String action, SqlWork<T> work);

    /** Runs {@code work} in one write transaction, retried as the store retries its writes. */
    <T> T write(String action, SqlWork<T> work);

    /**
     * Records, within the write transaction of {@code c}, that all of a namespace's {@code kind} changed, for the other
     * processes that share the store ({@link dev.memfas.spi.SharedStore#changesSince}).
     */
    void logWhole(Connection c, String namespace, Kind kind) throws SQLException;

    /** Records, within the write transaction of {@code c}, that these memories were written or deleted. */
    void logMemories(Connection c, String namespace, List<String> ids) throws SQLException;

    /** What marks the changes written through this store object, which its own curator need not read back. */
    String origin();
}
