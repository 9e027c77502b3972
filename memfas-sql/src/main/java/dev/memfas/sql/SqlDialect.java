package dev.memfas.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * What sets one store's SQL apart where the shared tables are concerned: names, how a list of ids is bound and
 * kept, how a row's sequence number is given. Everything else the shared tables write is the same in both stores.
 */
public interface SqlDialect {
    /**
     * The name of one of memfas's tables in this store: {@code memories}, {@code versions}, {@code triggers},
     * {@code token_counts}, {@code state}, {@code meta}.
     */
    String table(String name);

    /** The version of the store's schema that {@code c} reads, 0 before its tables were made. */
    int schemaVersion(Connection c) throws SQLException;

    /** The column of the memories table other tables refer to a memory by. */
    String memoryKey();

    /** The value a new row's {@code seq} column takes: its order of insertion. */
    String nextSequence(String table);

    /** Binds a list of ids kept in one column. */
    void setIdList(Connection c, PreparedStatement ps, int index, List<String> ids) throws SQLException;

    /** Reads a list of ids kept in one column. */
    List<String> idList(ResultSet rs, int column) throws SQLException;

    /** Binds a key of the key-value state: keys are any text, NUL included, which a store may keep as bytes. */
    void setStateKey(PreparedStatement ps, int index, String key) throws SQLException;

    /** Reads a key of the key-value state that {@link #setStateKey} bound. */
    String stateKey(ResultSet rs, int column) throws SQLException;

    /** Prepares a statement that reads columns of bytes (text, vectors); a store may ask its driver for them raw. */
    default PreparedStatement prepare(Connection c, String sql) throws SQLException {
        return c.prepareStatement(sql);
    }

    /**
     * Runs {@code select}, which ends in {@code AND } or {@code WHERE }, completed by a condition that
     * {@code idColumn} is one of {@code ids} (distinct: every caller has them so already): its text parameters
     * {@code params} first, then the ids; each row read goes to {@code row}.
     */
    void selectByIds(Connection c, String select, List<String> params, String idColumn, List<String> ids, Row row)
            throws SQLException;

    /** What is done with each row a statement reads. */
    @FunctionalInterface
    interface Row {
        void accept(ResultSet rs) throws SQLException;
    }
}
