package dev.memfas.postgres;

import dev.memfas.Memory;
import dev.memfas.spi.TokenCountStore.TokenCount;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code memfas_token_counts} table: a cache of how many tokens each memory takes as a context item, per
 * tokenizer, by the memory's seq; cleared when the memory is replaced, deleted with it.
 */
final class TokenCountsTable {
    private TokenCountsTable() {}

    /** Keeps the counts, only where the row still holds what was counted: a concurrent replace wins. */
    static void put(Connection c, String tokenizerKey, Collection<TokenCount> counts) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO memfas_token_counts (seq, tokenizer, tokens) "
                + "SELECT seq, ?, ? FROM memfas_memories WHERE namespace = ? AND id = ? AND text = ? AND source = ? "
                + "AND created_s = ? AND created_ns = ? "
                + "ON CONFLICT (seq, tokenizer) DO UPDATE SET tokens = excluded.tokens")) {
            for (TokenCount count : counts) {
                Memory m = count.memory();
                if (m.id() == null || m.createdAt() == null) {
                    continue;
                }
                ps.setString(1, tokenizerKey);
                ps.setInt(2, count.tokens());
                ps.setString(3, m.namespace());
                ps.setString(4, m.id());
                ps.setBytes(5, Codec.encodeText(m.text()));
                ps.setString(6, m.source());
                ps.setLong(7, m.createdAt().getEpochSecond());
                ps.setInt(8, m.createdAt().getNano());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** The cached counts of those of the given distinct ids that have one, by id. */
    static Map<String, Integer> byIds(Connection c, String namespace, String tokenizerKey, List<String> unique)
            throws SQLException {
        Map<String, Integer> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT m.id, t.tokens FROM memfas_token_counts t "
                + "JOIN memfas_memories m ON m.seq = t.seq WHERE t.tokenizer = ? AND m.namespace = ? "
                + "AND m.id = ANY (?)")) {
            ps.setString(1, tokenizerKey);
            ps.setString(2, namespace);
            ps.setArray(3, MemoriesTable.textArray(c, unique));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getInt(2));
                }
            }
        }
        return out;
    }
}
