package dev.memfas.sqlite;

import dev.memfas.spi.Embedder;
import dev.memfas.spi.Embeddings;
import dev.memfas.sql.SqlCodec;
import dev.memfas.sql.SqlTables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code vectors} table: each memory's embedding as float32 bytes, by the memory's rowid. Statements only; the
 * store runs them in its transactions and read connections.
 */
final class VectorsTable {
    /** How the shared reads find a namespace's vectors. */
    static final SqlTables.VectorRows ROWS = new SqlTables.VectorRows(
            "SELECT m.id, v.vector FROM vectors v JOIN memories m ON m.rowid = v.rowid WHERE m.namespace = ?", "m.id");

    private VectorsTable() {}

    /** Writes or clears the vectors of memories being written, one statement of each kind. */
    static final class Writer implements AutoCloseable {
        private final PreparedStatement put;
        private final PreparedStatement delete;

        Writer(Connection c) throws SQLException {
            put = c.prepareStatement("INSERT OR REPLACE INTO vectors (rowid, vector) VALUES (?, ?)");
            delete = c.prepareStatement("DELETE FROM vectors WHERE rowid = ?");
        }

        /** Stores the vector of the memory at {@code rowid}, or removes it when {@code vector} is null. */
        void put(long rowid, float[] vector) throws SQLException {
            if (vector != null) {
                put.setLong(1, rowid);
                put.setBytes(2, SqlCodec.encodeVector(vector));
                put.executeUpdate();
            } else {
                delete.setLong(1, rowid);
                delete.executeUpdate();
            }
        }

        @Override
        public void close() throws SQLException {
            put.close();
            delete.close();
        }
    }

    /**
     * Embeds every memory's text again and replaces all vectors with the embedder's, in batches of {@code batchSize},
     * in the caller's transaction; returns how many memories were embedded.
     */
    static int replaceAll(Connection c, Embedder embedder, int batchSize) throws SQLException {
        List<Long> rowids = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        MemoriesTable.allTexts(c, rowids, texts);
        try (Statement s = c.createStatement()) {
            s.execute("DELETE FROM vectors");
        }
        try (PreparedStatement put = c.prepareStatement("INSERT INTO vectors (rowid, vector) VALUES (?, ?)")) {
            for (int from = 0; from < texts.size(); from += batchSize) {
                List<String> batch = texts.subList(from, Math.min(texts.size(), from + batchSize));
                List<float[]> vectors = Embeddings.embed(embedder, batch, "rows " + from + " to "
                        + (from + batch.size() - 1));
                for (int i = 0; i < batch.size(); i++) {
                    put.setLong(1, rowids.get(from + i));
                    put.setBytes(2, SqlCodec.encodeVector(vectors.get(i)));
                    put.addBatch();
                }
                put.executeBatch();
            }
        }
        return texts.size();
    }
}
