package dev.memfas.postgres;

import dev.memfas.sql.SqlTransactions;
import dev.memfas.sql.SqlWork;

/**
 * The shared tables' transactions: writes on the database, reads on {@code reads} (a read replica if the store has
 * one).
 */
record PostgresTransactions(Database db, Database reads) implements SqlTransactions {
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
}
