package dev.memfas.sql;

import dev.memfas.Memory;
import dev.memfas.spi.TokenCountStore.TokenCount;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A store's token counts ({@link dev.memfas.spi.TokenCountStore}) in its {@code token_counts} table: a cache of how
 * many tokens each memory takes as a context item, per tokenizer, by the memory's key; cleared when the memory is
 * replaced. Each call checks its arguments and is one transaction. Thread-safe.
 */
final class SqlTokenCounts {
    private final SqlTransactions db;
    private final SqlDialect dialect;
    private final String table;
    private final String memories;

    SqlTokenCounts(SqlTransactions db, SqlDialect dialect) {
        this.db = db;
        this.dialect = dialect;
        this.table = dialect.table("token_counts");
        this.memories = dialect.table("memories");
    }

    /** Keeps the counts, only where the row still holds what was counted: a concurrent replace wins. */
    void put(String tokenizerKey, Collection<TokenCount> counts) {
        Objects.requireNonNull(tokenizerKey, "tokenizerKey");
        Objects.requireNonNull(counts, "counts");
        if (counts.isEmpty()) {
            return;
        }
        String key = dialect.memoryKey();
        db.write("cache token counts", c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (" + key + ", tokenizer, tokens) "
                    + "SELECT " + key + ", ?, ? FROM " + memories + " WHERE namespace = ? AND id = ? AND text = ? "
                    + "AND source = ? AND created_s = ? AND created_ns = ? "
                    + "ON CONFLICT (" + key + ", tokenizer) DO UPDATE SET tokens = excluded.tokens")) {
                for (TokenCount count : counts) {
                    Memory m = count.memory();
                    if (m.id() == null || m.createdAt() == null) {
                        continue;
                    }
                    ps.setString(1, tokenizerKey);
                    ps.setInt(2, count.tokens());
                    ps.setString(3, m.namespace());
                    ps.setString(4, m.id());
                    ps.setBytes(5, SqlCodec.encodeText(m.text()));
                    ps.setString(6, m.source());
                    SqlCodec.setInstant(ps, 7, m.createdAt());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            return null;
        });
    }

    /** The cached counts of those of the ids that have one, by id. */
    Map<String, Integer> byIds(String namespace, String tokenizerKey, Collection<String> ids) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(tokenizerKey, "tokenizerKey");
        Objects.requireNonNull(ids, "ids");
        List<String> unique = new ArrayList<>(new LinkedHashSet<>(ids));
        if (unique.isEmpty()) {
            return Map.of();
        }
        return db.read("read token counts", c -> byIds(c, namespace, tokenizerKey, unique));
    }

    private Map<String, Integer> byIds(Connection c, String namespace, String tokenizerKey, List<String> unique)
            throws SQLException {
        Map<String, Integer> out = new HashMap<>();
        String key = dialect.memoryKey();
        dialect.selectByIds(c, "SELECT m.id, t.tokens FROM " + table + " t JOIN " + memories + " m ON m." + key
                + " = t." + key + " WHERE t.tokenizer = ? AND m.namespace = ? AND ", List.of(tokenizerKey, namespace),
                "m.id", unique, rs -> out.put(rs.getString(1), rs.getInt(2)));
        return out;
    }
}
