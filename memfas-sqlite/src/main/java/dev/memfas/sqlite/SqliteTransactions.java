package dev.memfas.sqlite;

import dev.memfas.spi.SharedStore.Kind;
import dev.memfas.sql.SqlTransactions;
import dev.memfas.sql.SqlWork;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** The shared tables' transactions on the SQLite file, and their changes logged as written by {@code origin}. */
record SqliteTransactions(SqliteDatabase db, String origin) implements SqlTransactions {
    @Override
    public <T> T read(String action, SqlWork<T> work) {
        return db.read(action, work);
    }

    @Override
    public void ensureOpen() {
        db.ensureOpen();
    }

    @Override
    public <T> T readCursor(String action, SqlWork<T> work) {
        return db.read(action, work);
    }

    @Override
    public <T> T readPrimary(String action, SqlWork<T> work) {
        return db.read(action, work);
    }

    @Override
    public <T> T write(String action, SqlWork<T> work) {
        return db.write(action, work, null);
    }

    @Override
    public void logWhole(Connection c, String namespace, Kind kind) throws SQLException {
        ChangeLog.append(c, origin, namespace, kind, null);
    }

    @Override
    public void logMemories(Connection c, String namespace, List<String> ids) throws SQLException {
        ChangeLog.appendMemories(c, origin, namespace, ids);
    }
}
