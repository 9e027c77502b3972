package dev.memfas.postgres;

import dev.memfas.spi.SharedStore.Kind;
import dev.memfas.sql.SqlTransactions;
import dev.memfas.sql.SqlWork;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The shared tables' transactions: writes on the database, reads on {@code reads} (a read replica if the store has
 * one), and changes logged as written by {@code origin}.
 */
record PostgresTransactions(Database db, Database reads, String origin) implements SqlTransactions {
    @Override
    public <T> T read(String action, SqlWork<T> work) {
        return reads.read(action, work);
    }

    @Override
    public void ensureOpen() {
        db.ensureOpen();
    }

    /** A transaction, for the cursor that streams the rows; it only reads. */
    @Override
    public <T> T readCursor(String action, SqlWork<T> work) {
        return reads.write(action, work);
    }

    @Override
    public <T> T readPrimary(String action, SqlWork<T> work) {
        return db.read(action, work);
    }

    @Override
    public <T> T write(String action, SqlWork<T> work) {
        return db.write(action, work);
    }

    @Override
    public void logWhole(Connection c, String namespace, Kind kind) throws SQLException {
        WriteLog log = new WriteLog();
        log.whole(namespace, kind);
        log.finish(c, origin);
    }

    @Override
    public void logMemories(Connection c, String namespace, List<String> ids) throws SQLException {
        WriteLog log = new WriteLog();
        log.memories(namespace, ids);
        log.finish(c, origin);
    }
}
