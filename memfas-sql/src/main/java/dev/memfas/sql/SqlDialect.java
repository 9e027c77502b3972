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
    /** The name of one of memfas's tables in this store ({@code triggers}, {@code token_counts}). */
    String table(String name);

    /** The column of the memories table other tables refer to a memory by. */
    String memoryKey();

    /** The value a new row's {@code seq} column takes: its order of insertion. */
    String nextSequence(String table);

    /**
     * A condition that {@code column} is one of {@code count} ids, whose parameters {@link #setIds} binds; at most
     * {@link #idsPerStatement()} of them.
     */
    String idIn(String column, int count);

    /** How many ids {@link #idIn} may hold; a longer list is read in chunks of this size. */
    int idsPerStatement();

    /** Binds the parameters of {@link #idIn} from {@code index}; returns the index after them. */
    int setIds(Connection c, PreparedStatement ps, int index, List<String> ids) throws SQLException;

    /** Binds a list of ids kept in one column. */
    void setIdList(Connection c, PreparedStatement ps, int index, List<String> ids) throws SQLException;

    /** Reads a list of ids kept in one column. */
    List<String> idList(ResultSet rs, int column) throws SQLException;
}
