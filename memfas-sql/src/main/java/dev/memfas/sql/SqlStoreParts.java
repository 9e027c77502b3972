package dev.memfas.sql;

import dev.memfas.spi.StateStore;
import java.util.Objects;

/**
 * What a SQL store hands {@link AbstractSqlStore}: how it runs transactions, its statements, and its key-value state;
 * with them, the triggers and token counts in the shared tables, written in the store's dialect.
 */
public final class SqlStoreParts {
    final SqlTransactions db;
    final SqlStatements statements;
    final SqlTriggers triggers;
    final SqlTokenCounts tokenCounts;
    final StateStore state;

    /** The parts of a store that runs its transactions with {@code db} and writes {@code dialect}'s SQL. */
    public SqlStoreParts(SqlTransactions db, SqlDialect dialect, SqlStatements statements, StateStore state) {
        this.db = Objects.requireNonNull(db, "db");
        this.statements = Objects.requireNonNull(statements, "statements");
        this.triggers = new SqlTriggers(db, Objects.requireNonNull(dialect, "dialect"));
        this.tokenCounts = new SqlTokenCounts(db, dialect);
        this.state = Objects.requireNonNull(state, "state");
    }
}
