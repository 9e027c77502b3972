package dev.memfas.sqlite;

import dev.memfas.spi.TokenCountStore.TokenCount;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The store's token counts ({@link dev.memfas.spi.TokenCountStore}): the arguments checked, each call one
 * transaction of {@link TokenCountsTable}. Thread-safe.
 */
final class StoreTokenCounts {
    private final SqliteDatabase db;
    StoreTokenCounts(SqliteDatabase db) {
        this.db = db;
    }

    void put(String tokenizerKey, Collection<TokenCount> counts) {
        Objects.requireNonNull(tokenizerKey, "tokenizerKey");
        Objects.requireNonNull(counts, "counts");
        if (counts.isEmpty()) {
            return;
        }
        db.write("cache token counts", c -> {
            TokenCountsTable.put(c, tokenizerKey, counts);
            return null;
        }, null);
    }

    Map<String, Integer> byIds(String namespace, String tokenizerKey, Collection<String> ids) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(tokenizerKey, "tokenizerKey");
        Objects.requireNonNull(ids, "ids");
        List<String> unique = new ArrayList<>(new LinkedHashSet<>(ids));
        if (unique.isEmpty()) {
            return Map.of();
        }
        return db.read("read token counts", c -> TokenCountsTable.byIds(c, namespace, tokenizerKey, unique));
    }
}
