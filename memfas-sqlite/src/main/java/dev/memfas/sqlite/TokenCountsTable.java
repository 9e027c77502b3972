package dev.memfas.sqlite;

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
 * The {@code token_counts} table: a cache of how many tokens each memory takes as a context item, per tokenizer, by
 * the memory's rowid; cleared when the memory is replaced. Statements only.
 */
final class TokenCountsTable {
    private TokenCountsTable() {}

    /** Forgets the counts of a replaced memory. */
    static PreparedStatement deleter(Connection c) throws SQLException {
        return c.prepareStatement("DELETE FROM token_counts WHERE rowid = ?");
    }

    /** Keeps the counts, only where the row still holds what was counted: a concurrent replace wins. */
    static void put(Connection c, String tokenizerKey, Collection<TokenCount> counts) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT OR REPLACE INTO token_counts (rowid, tokenizer, "
                + "tokens) SELECT rowid, ?, ? FROM memories WHERE namespace = ? AND id = ? AND text = ? "
                + "AND source = ? AND created_s = ? AND created_ns = ?")) {
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
        for (int from = 0; from < unique.size(); from += MemoriesTable.IN_CHUNK) {
            List<String> chunk = unique.subList(from, Math.min(unique.size(), from + MemoriesTable.IN_CHUNK));
            try (PreparedStatement ps = c.prepareStatement("SELECT m.id, t.tokens FROM token_counts t "
                    + "JOIN memories m ON m.rowid = t.rowid WHERE t.tokenizer = ? AND m.namespace = ? "
                    + "AND m.id IN (" + MemoriesTable.placeholders(chunk.size()) + ")")) {
                ps.setString(1, tokenizerKey);
                ps.setString(2, namespace);
                for (int i = 0; i < chunk.size(); i++) {
                    ps.setString(i + 3, chunk.get(i));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.put(rs.getString(1), rs.getInt(2));
                    }
                }
            }
        }
        return out;
    }
}
