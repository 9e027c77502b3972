/**
 * Internal: what the SQLite and PostgreSQL stores share (the codec of their columns, a memory's row, the triggers,
 * token-count and key-value state tables, the reads of vectors, the full-text search, the store facets they implement
 * alike), parameterized
 * by each store's {@link dev.memfas.sql.SqlDialect}.
 * Not an API: it may change in any release.
 */
module dev.memfas.sql {
    requires transitive dev.memfas;
    requires transitive java.sql;
    requires com.github.benmanes.caffeine;

    exports dev.memfas.sql;
}
