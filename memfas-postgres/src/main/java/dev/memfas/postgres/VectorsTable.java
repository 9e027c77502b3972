package dev.memfas.postgres;

import dev.memfas.Memory;
import dev.memfas.MemoryStore.VectorConsumer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The {@code memfas_vectors} table: each memory's vector, by the memory's seq, with its namespace and id. */
final class VectorsTable {
    private VectorsTable() {}

    /** Writes (or, for a memory stored without one, removes) the vectors of a batch of memories. */
    static final class Writer implements AutoCloseable {
        private final PreparedStatement put;
        private final PreparedStatement remove;

        Writer(Connection c) throws SQLException {
            put = c.prepareStatement("INSERT INTO memfas_vectors (seq, namespace, id, vector) VALUES (?, ?, ?, ?) "
                    + "ON CONFLICT (seq) DO UPDATE SET vector = excluded.vector");
            remove = c.prepareStatement("DELETE FROM memfas_vectors WHERE seq = ?");
        }

        void put(long seq, Memory m, float[] vector) throws SQLException {
            if (vector == null) {
                remove.setLong(1, seq);
                remove.executeUpdate();
            } else {
                put.setLong(1, seq);
                put.setString(2, m.namespace());
                put.setString(3, m.id());
                put.setBytes(4, Codec.encodeVector(vector));
                put.executeUpdate();
            }
        }

        @Override
        public void close() throws SQLException {
            put.close();
            remove.close();
        }
    }

    /**
     * Streams the namespace's vectors to the action, a thousand rows at a time: a cursor, so that a namespace of
     * millions never sits in memory twice. Runs in the caller's transaction (a cursor needs one).
     */
    static void forEach(Connection c, String namespace, int dimension, VectorConsumer action) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT id, vector FROM memfas_vectors WHERE namespace = ?")) {
            ps.setString(1, namespace);
            ps.setFetchSize(1000);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    action.accept(rs.getString(1), Codec.decodeVector(rs.getBytes(2), dimension));
                }
            }
        }
    }

    static Map<String, float[]> byIds(Connection c, String namespace, Collection<String> ids, int dimension)
            throws SQLException {
        Map<String, float[]> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id, vector FROM memfas_vectors WHERE namespace = ? AND id = ANY (?)")) {
            ps.setString(1, namespace);
            ps.setArray(2, MemoriesTable.textArray(c, ids));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), Codec.decodeVector(rs.getBytes(2), dimension));
                }
            }
        }
        return out;
    }

    static long count(Connection c, String namespace) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM memfas_vectors WHERE namespace = ?")) {
            ps.setString(1, namespace);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Replaces the vectors of the given memories (by seq), in batches. */
    static void replace(Connection c, List<Long> seqs, List<float[]> vectors) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO memfas_vectors (seq, namespace, id, vector) "
                + "SELECT seq, namespace, id, ? FROM memfas_memories WHERE seq = ? "
                + "ON CONFLICT (seq) DO UPDATE SET vector = excluded.vector")) {
            for (int i = 0; i < seqs.size(); i++) {
                ps.setBytes(1, Codec.encodeVector(vectors.get(i)));
                ps.setLong(2, seqs.get(i));
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }
}
