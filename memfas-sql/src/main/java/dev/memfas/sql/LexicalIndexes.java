package dev.memfas.sql;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.memfas.spi.LexicalHit;
import dev.memfas.spi.SharedStore.Change;
import dev.memfas.spi.SharedStore.Changes;
import dev.memfas.spi.SharedStore.Kind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A SQL store's full-text search: one {@link LexicalIndex} per namespace, in this process, so that a search costs what
 * its namespace holds however many others share the store. A namespace's index is read from the store on its first
 * search and, before each search, brought up to the store's change log (the writes of every process, this one's
 * included); the indexes are kept within a memory limit, Caffeine dropping those least likely to be searched again
 * (by recency and frequency) and a dropped one read again on its next search. Thread-safe.
 */
final class LexicalIndexes {
    /** Changes read from the log at a time while an index catches up. */
    private static final int CHANGES_PER_READ = 1000;
    /**
     * An index this many changes behind (beyond four per memory it holds) is read afresh rather than caught up: reading
     * a namespace's texts costs about what reading that many changes of other namespaces does.
     */
    private static final int CATCH_UP_MOST = 10_000;
    /** The origin no store object writes under: reads every process's changes, this one's too. */
    private static final String EVERY_ORIGIN = "";

    private final SqlTransactions db;
    private final SqlTables tables;
    private final Cache<String, LexicalIndex> loaded;

    LexicalIndexes(SqlTransactions db, SqlTables tables, long memoryLimit) {
        if (memoryLimit < 1) {
            throw new IllegalArgumentException("lexical index memory limit must be positive: " + memoryLimit);
        }
        this.db = db;
        this.tables = tables;
        // A weight is at most the limit, so that one index larger than the limit stays (alone) rather than being read
        // again at every search.
        this.loaded = Caffeine.newBuilder().maximumWeight(memoryLimit)
                .weigher((String namespace, LexicalIndex index) -> (int) Math.min(Math.min(index.bytes(), memoryLimit),
                        Integer.MAX_VALUE))
                .executor(Runnable::run)
                .build();
    }

    /** The namespace's best {@code limit} memories for the query, best first; none if the query has no word. */
    List<LexicalHit> search(String namespace, String query, int limit) {
        List<String> terms = Fts5Terms.query(query);
        if (terms.isEmpty()) {
            return List.of();
        }
        return current(namespace, lastChange()).search(terms, limit);
    }

    private long lastChange() {
        return db.read("read the change log", c -> tables.changes().last(c));
    }

    /**
     * The namespace's index, read or caught up so that it holds every change up to {@code last}; read again when the
     * log went back before it (a database restored from a backup, or a replica that lacked the last commits).
     */
    private LexicalIndex current(String namespace, long last) {
        LexicalIndex index = loaded.get(namespace, this::load);
        if (index.upTo() == last) {
            return index;
        }
        synchronized (index) {
            if (index.upTo() > last) {
                // Another search caught up past the number this one read, or the log went back: read it again.
                last = lastChange();
            }
            if (index.upTo() == last) {
                return index;
            }
            if (index.upTo() < last && catchUp(namespace, index, last)) {
                loaded.asMap().computeIfPresent(namespace, (ns, same) -> same); // weighed again
                return index;
            }
            LexicalIndex fresh = load(namespace);
            loaded.put(namespace, fresh);
            return fresh;
        }
    }

    /**
     * Applies the changes to the namespace made since the index was current; false if it should be read afresh
     * instead (too far behind, a change to the whole namespace, or changes the log no longer holds).
     */
    private boolean catchUp(String namespace, LexicalIndex index, long last) {
        if (last - index.upTo() > CATCH_UP_MOST + 4L * index.size()) {
            return false;
        }
        Set<String> changed = new LinkedHashSet<>();
        long upTo = index.upTo();
        while (upTo < last) {
            long after = upTo;
            Changes run = db.read("read the change log",
                    c -> tables.changes().since(c, after, CHANGES_PER_READ, EVERY_ORIGIN));
            if (!run.complete()) {
                return false;
            }
            for (Change change : run.changes()) {
                if (change.namespace().equals(namespace)) {
                    if (change.kind() == Kind.NAMESPACE) {
                        return false;
                    }
                    if (change.kind() == Kind.MEMORY) {
                        changed.add(change.memoryId());
                    }
                }
            }
            upTo = run.upTo();
            if (run.exhausted()) {
                break;
            }
        }
        Map<String, String> texts = changed.isEmpty() ? Map.of()
                : db.read("read memory texts", c -> texts(c, namespace, new ArrayList<>(changed)));
        index.apply(changed, texts, upTo);
        return true;
    }

    /** Reads the namespace's texts into a new index, current up to the change log's last change before the read. */
    private LexicalIndex load(String namespace) {
        SqlDialect dialect = tables.dialect();
        return db.readCursor("read a namespace's texts", c -> {
            LexicalIndex index = new LexicalIndex(tables.changes().last(c));
            try (PreparedStatement ps = dialect.prepare(c,
                    "SELECT id, text FROM " + dialect.table("memories") + " WHERE namespace = ?")) {
                ps.setString(1, namespace);
                ps.setFetchSize(1000);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        index.put(rs.getString(1), SqlCodec.decodeText(rs.getBytes(2)));
                    }
                }
            }
            return index;
        });
    }

    private Map<String, String> texts(Connection c, String namespace, List<String> ids) throws SQLException {
        Map<String, String> texts = new HashMap<>();
        SqlDialect dialect = tables.dialect();
        dialect.selectByIds(c, "SELECT id, text FROM " + dialect.table("memories") + " WHERE namespace = ? AND ",
                List.of(namespace), "id", ids, rs -> texts.put(rs.getString(1), SqlCodec.decodeText(rs.getBytes(2))));
        return texts;
    }
}
