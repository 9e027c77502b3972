package dev.memfas.sql;

import java.sql.Connection;
import java.sql.SQLException;

/** The statements of one transaction, on its connection. */
@FunctionalInterface
public interface SqlWork<T> {
    T run(Connection c) throws SQLException;
}
