package dev.memfas.sqlite;

import dev.memfas.spi.VectorSpace;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** The {@code store_meta} table: what the whole file is about, today the space of its vectors. Statements only. */
final class StoreMeta {
    private StoreMeta() {}

    /** The model and dimension of the stored vectors, or null before the first vector. */
    static VectorSpace vectorSpace(Connection c) throws SQLException {
        String model = null;
        String dimension = null;
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT key, value FROM store_meta WHERE key IN "
                        + "('vector_model', 'vector_dimension')")) {
            while (rs.next()) {
                if (rs.getString(1).equals("vector_model")) {
                    model = rs.getString(2);
                } else {
                    dimension = rs.getString(2);
                }
            }
        }
        return model == null || dimension == null ? null : new VectorSpace(model, Integer.parseInt(dimension));
    }

    static void putVectorSpace(Connection c, VectorSpace space) throws SQLException {
        put(c, "vector_model", space.modelId());
        put(c, "vector_dimension", Integer.toString(space.dimension()));
    }

    private static void put(Connection c, String key, String value) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")) {
            ps.setString(1, key);
            ps.setString(2, value);
            ps.executeUpdate();
        }
    }
}
