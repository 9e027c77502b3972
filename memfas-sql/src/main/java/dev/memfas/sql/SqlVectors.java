package dev.memfas.sql;

import dev.memfas.spi.MemoryStore.VectorConsumer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The reads of a store's vectors, over the one SELECT its vectors table gives ({@link SqlTables.VectorRows#select}):
 * streaming a namespace's, by ids, and counting them. Statements only, in the caller's transaction.
 */
final class SqlVectors {
    private SqlVectors() {}

    /**
     * Streams the namespace's vectors to the action a thousand rows at a time, so that a namespace of millions never
     * sits in memory twice: PostgreSQL reads them through a cursor (in a transaction), SQLite steps its statement.
     */
    static void forEach(Connection c, SqlTables tables, String namespace, int dimension, VectorConsumer action)
            throws SQLException {
        try (PreparedStatement ps = tables.dialect().prepare(c, tables.vectors().select())) {
            ps.setString(1, namespace);
            ps.setFetchSize(1000);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    action.accept(rs.getString(1), SqlCodec.decodeVector(rs.getBytes(2), dimension));
                }
            }
        }
    }

    /** The vectors of those of the given distinct ids that have one, by id. */
    static Map<String, float[]> byIds(Connection c, SqlTables tables, String namespace, List<String> ids,
            int dimension) throws SQLException {
        Map<String, float[]> out = new HashMap<>();
        SqlTables.VectorRows vectors = tables.vectors();
        tables.dialect().selectByIds(c, vectors.select() + " AND ", List.of(namespace), vectors.idColumn(), ids,
                rs -> out.put(rs.getString(1), SqlCodec.decodeVector(rs.getBytes(2), dimension)));
        return out;
    }

    /** How many of the namespace's memories have a vector. */
    static long count(Connection c, SqlTables tables, String namespace) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT count(*) FROM (" + tables.vectors().select() + ") AS n")) {
            ps.setString(1, namespace);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
