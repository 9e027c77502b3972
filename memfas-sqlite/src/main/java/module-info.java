/** The durable store: memories, vectors, full-text search, triggers and state in one SQLite file. */
module dev.memfas.sqlite {
    requires transitive dev.memfas;
    // The store extends AbstractSqlStore, the part of it the PostgreSQL store shares.
    requires transitive dev.memfas.sql;
    requires java.sql;
    requires org.xerial.sqlitejdbc;
    requires org.slf4j;

    exports dev.memfas.sqlite;
}
