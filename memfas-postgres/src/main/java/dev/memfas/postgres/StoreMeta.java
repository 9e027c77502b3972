package dev.memfas.postgres;

import dev.memfas.spi.VectorSpace;
import dev.memfas.sql.SqlWork;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** The {@code memfas_meta} table: what the whole store is about: its schema version and the space of its vectors. */
final class StoreMeta {
    private StoreMeta() {}

    /**
     * Records the space of the first vectors, unless another process recorded one first (its commit is waited for);
     * returns the space the store holds now, as {@code read} reads it.
     */
    static VectorSpace claimVectorSpace(Connection c, VectorSpace space, SqlWork<VectorSpace> read)
            throws SQLException {
        // The model row is the claim: the first insert wins, a concurrent one waits for it and inserts nothing.
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO memfas_meta (key, value) VALUES "
                + "('vector_model', ?), ('vector_dimension', ?) ON CONFLICT (key) DO NOTHING")) {
            ps.setString(1, space.modelId());
            ps.setString(2, Integer.toString(space.dimension()));
            ps.executeUpdate();
        }
        return read.run(c);
    }

    /** The version of the pgvector extension installed in the database, or null. */
    static String pgvectorVersion(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT extversion FROM pg_extension WHERE extname = 'vector'")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
