package dev.memfas.postgres;

import dev.memfas.Memory;
import dev.memfas.spi.Embedder;
import dev.memfas.spi.Embeddings;
import dev.memfas.sql.SqlCodec;
import dev.memfas.sql.SqlTables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The {@code memfas_vectors} table: each memory's vector, by the memory's seq, with its namespace and id. */
final class VectorsTable {
    /** How the shared reads find a namespace's vectors. */
    static final SqlTables.VectorRows ROWS = new SqlTables.VectorRows(
            "SELECT id, vector FROM memfas_vectors WHERE namespace = ?", "id");

    private VectorsTable() {}

    /**
     * Writes the vectors of a batch of memories (by their seqs) in one statement; with none given, removes those the
     * replaced memories had (their text may have changed).
     */
    static void putAll(Connection c, List<Memory> memories, long[] seqs, Embeddings embeddings, List<Integer> replaced)
            throws SQLException {
        if (embeddings.isEmpty()) {
            if (replaced.isEmpty()) {
                return;
            }
            Long[] gone = new Long[replaced.size()];
            for (int k = 0; k < gone.length; k++) {
                gone[k] = seqs[replaced.get(k)];
            }
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM memfas_vectors WHERE seq = ANY (?)")) {
                ps.setArray(1, c.createArrayOf("bigint", gone));
                ps.executeUpdate();
            }
            return;
        }
        int n = memories.size();
        Long[] seq = new Long[n];
        String[] namespaces = new String[n];
        String[] ids = new String[n];
        byte[][] vectors = new byte[n][];
        for (int i = 0; i < n; i++) {
            seq[i] = seqs[i];
            namespaces[i] = memories.get(i).namespace();
            ids[i] = memories.get(i).id();
            vectors[i] = SqlCodec.encodeVector(embeddings.vector(i));
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO memfas_vectors (seq, namespace, id, vector) "
                + "SELECT * FROM unnest(?::bigint[], ?::text[], ?::text[], ?::bytea[]) "
                + "ON CONFLICT (seq) DO UPDATE SET vector = excluded.vector")) {
            ps.setArray(1, c.createArrayOf("bigint", seq));
            ps.setArray(2, c.createArrayOf("text", namespaces));
            ps.setArray(3, c.createArrayOf("text", ids));
            ps.setArray(4, c.createArrayOf("bytea", vectors));
            ps.executeUpdate();
        }
    }

    /**
     * Embeds every memory's text again with the embedder, in batches, and replaces its vector (re-embedding a store);
     * returns how many memories were embedded.
     */
    static int replaceAll(Connection c, Embedder embedder, int batchSize) throws SQLException {
        Map<Long, String> texts = MemoriesTable.allTexts(c);
        List<Long> seqs = new ArrayList<>(texts.keySet());
        List<String> all = new ArrayList<>(texts.values());
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO memfas_vectors (seq, namespace, id, vector) "
                + "SELECT seq, namespace, id, ? FROM memfas_memories WHERE seq = ? "
                + "ON CONFLICT (seq) DO UPDATE SET vector = excluded.vector")) {
            for (int from = 0; from < seqs.size(); from += batchSize) {
                int to = Math.min(seqs.size(), from + batchSize);
                List<float[]> vectors = Embeddings.embed(embedder, all.subList(from, to), "memories " + from + " to "
                        + (to - 1));
                for (int i = from; i < to; i++) {
                    ps.setBytes(1, SqlCodec.encodeVector(vectors.get(i - from)));
                    ps.setLong(2, seqs.get(i));
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        }
        return seqs.size();
    }
}
