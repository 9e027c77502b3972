package dev.memfas.sql;

import dev.memfas.spi.StateStore;
import java.util.Objects;

/**
 * The parts of a SQL store that both stores implement alike: its triggers and token counts, in the shared tables, and
 * its key-value state, which each store keeps in its own table. What {@link AbstractSqlStore} hands its calls to.
 */
public final class SqlFacets {
    final SqlTriggers triggers;
    final SqlTokenCounts tokenCounts;
    final StateStore state;

    /** The facets of a store that runs its transactions with {@code db} and writes {@code dialect}'s SQL. */
    public SqlFacets(SqlTransactions db, SqlDialect dialect, StateStore state) {
        Objects.requireNonNull(db, "db");
        Objects.requireNonNull(dialect, "dialect");
        this.triggers = new SqlTriggers(db, dialect);
        this.tokenCounts = new SqlTokenCounts(db, dialect);
        this.state = Objects.requireNonNull(state, "state");
    }
}
