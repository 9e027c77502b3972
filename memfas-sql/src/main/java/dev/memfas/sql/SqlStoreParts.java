package dev.memfas.sql;

import java.time.Clock;
import java.util.Objects;
import java.util.UUID;

/**
 * What a SQL store hands {@link AbstractSqlStore}: how it runs transactions, and its tables; with them, the
 * triggers, token counts and key-value state, written in the store's dialect.
 */
public final class SqlStoreParts {
    final SqlTransactions db;
    final SqlTables tables;
    /** What marks the changes written through this store object, which its own curator need not read back. */
    final String origin;
    final SqlTriggers triggers;
    final SqlTokenCounts tokenCounts;
    final SqlState state;
    final LexicalIndexes lexical;

    /**
     * The parts of a store that runs its transactions with {@code db} over {@code tables}, dates the state values
     * saved without a time by {@code clock}, and keeps its full-text indexes in at most {@code lexicalMemoryLimit}
     * bytes.
     */
    public SqlStoreParts(SqlTransactions db, SqlTables tables, Clock clock, long lexicalMemoryLimit) {
        this.db = Objects.requireNonNull(db, "db");
        this.tables = Objects.requireNonNull(tables, "tables");
        this.origin = UUID.randomUUID().toString();
        this.triggers = new SqlTriggers(db, tables, origin);
        this.tokenCounts = new SqlTokenCounts(db, tables.dialect());
        this.state = new SqlState(db, tables, Objects.requireNonNull(clock, "clock"));
        this.lexical = new LexicalIndexes(db, tables, lexicalMemoryLimit);
    }
}
