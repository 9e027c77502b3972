package dev.memfas.sql;

import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.State;
import dev.memfas.Trigger;
import dev.memfas.spi.Embedder;
import dev.memfas.spi.LexicalHit;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.SharedStore;
import dev.memfas.spi.StateStore;
import dev.memfas.spi.StoredMemory;
import dev.memfas.spi.TokenCountStore;
import dev.memfas.spi.TriggerStore;
import dev.memfas.spi.VectorSpace;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * What the SQLite and PostgreSQL stores share: a durable store of memories that other processes may share. The calls
 * both answer alike are here, each checking its arguments and running one transaction of the store's
 * {@link SqlTables}; its triggers, token counts and key-value state are handed to its {@link SqlStoreParts}.
 * Internal: a store of one's own implements the {@code dev.memfas.spi} interfaces instead.
 */
public abstract class AbstractSqlStore implements MemoryStore, StateStore, TriggerStore, TokenCountStore,
        SharedStore {
    /** The heap the full-text indexes take unless a store's builder says: 128 MB, 280,000 memories of 20 words. */
    protected static final long DEFAULT_LEXICAL_MEMORY = 128L << 20;

    private volatile VectorSpace vectorSpace;

    /** For the two stores of memfas. */
    protected AbstractSqlStore() {}

    /** The store's transactions and tables; the same object on every call. */
    protected abstract SqlStoreParts parts();

    /** What marks the changes this object writes, which its own curator need not read back. */
    protected final String origin() {
        return parts().origin;
    }

    /** The space of the stored vectors as this object last knew it; null before the first vector. */
    protected final VectorSpace knownSpace() {
        return vectorSpace;
    }

    /** What this object knows the space of the stored vectors to be, after a write set it. */
    protected final void knowSpace(VectorSpace space) {
        vectorSpace = space;
    }

    /** The model and dimension of the stored vectors in the meta table, or null before the first vector. */
    protected final VectorSpace readSpace(Connection c) throws SQLException {
        String model = null;
        String dimension = null;
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT key, value FROM " + parts().tables.dialect().table("meta")
                        + " WHERE key IN ('vector_model', 'vector_dimension')")) {
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

    /** Records the space of the vectors in the meta table, replacing any (re-embedding). */
    protected final void writeSpace(Connection c, VectorSpace space) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + parts().tables.dialect().table("meta")
                + " (key, value) VALUES ('vector_model', ?), ('vector_dimension', ?) "
                + "ON CONFLICT (key) DO UPDATE SET value = excluded.value")) {
            ps.setString(1, space.modelId());
            ps.setString(2, Integer.toString(space.dimension()));
            ps.executeUpdate();
        }
    }

    @Override
    public final Optional<VectorSpace> vectorSpace() {
        parts().db.ensureOpen();
        if (vectorSpace == null) {
            // Another process may have stored the first vectors since this one opened the store.
            VectorSpace stored = parts().db.readPrimary("read the vector space", this::readSpace);
            if (stored != null) {
                vectorSpace = stored;
            }
        }
        return Optional.ofNullable(vectorSpace);
    }

    @Override
    public final void forEachVector(String namespace, VectorConsumer action) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(action, "action");
        VectorSpace space = vectorSpace().orElse(null);
        if (space == null) {
            return;
        }
        parts().db.readCursor("read vectors", c -> {
            SqlVectors.forEach(c, parts().tables, namespace, space.dimension(), action);
            return null;
        });
    }

    @Override
    public final List<StoredMemory> getAll(String namespace, Collection<String> ids) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(ids, "ids");
        List<String> unique = new ArrayList<>(new LinkedHashSet<>(ids));
        if (unique.isEmpty()) {
            return List.of();
        }
        Map<String, StoredMemory> found = parts().db.read("read memories",
                c -> SqlMemoryRow.byIds(c, parts().tables.dialect(), namespace, unique));
        List<StoredMemory> ordered = new ArrayList<>(found.size());
        for (String id : unique) {
            StoredMemory s = found.get(id);
            if (s != null) {
                ordered.add(s);
            }
        }
        return ordered;
    }

    /**
     * Deletes the memories of the given ids, each logged as a change whether or not it existed here (another process
     * may hold it still).
     */
    @Override
    public final int deleteAll(String namespace, Collection<String> ids) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(ids, "ids");
        List<String> unique = new ArrayList<>(new LinkedHashSet<>(ids));
        unique.forEach(id -> Objects.requireNonNull(id, "id"));
        if (unique.isEmpty()) {
            return 0;
        }
        return parts().db.write("delete memories",
                c -> parts().tables.memories().delete(c, parts().origin, namespace, unique));
    }

    @Override
    public final List<LexicalHit> searchLexical(String namespace, String query, int limit) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(query, "query");
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        if (query.isBlank()) {
            return List.of();
        }
        return parts().lexical.search(namespace, query, limit);
    }

    /** Checks a store builder's memory limit for the full-text indexes: at least 1 MB. */
    protected static long checkLexicalMemory(long bytes) {
        if (bytes < (1L << 20)) {
            throw new IllegalArgumentException("lexical index memory must be at least 1 MB (1048576 bytes): " + bytes);
        }
        return bytes;
    }

    /**
     * Checks a store builder's time to wait: not null, and within 0 and 24 days (what a driver's int of milliseconds
     * holds).
     */
    protected static Duration checkWait(String name, Duration wait) {
        Objects.requireNonNull(wait, name);
        if (wait.isNegative() || wait.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(name + " must be between 0 and 24 days: " + wait);
        }
        return wait;
    }

    /**
     * Checks the arguments of a store's {@code reembed(embedder, batchSize)}, which replaces every stored vector with
     * the embedder's; returns the space the vectors will be in.
     */
    protected static VectorSpace reembedSpace(Embedder embedder, int batchSize) {
        Objects.requireNonNull(embedder, "embedder");
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be positive: " + batchSize);
        }
        return new VectorSpace(embedder.modelId(), embedder.dimension());
    }

    @Override
    public final List<StoredMemory> neighborhood(String namespace, String id, int radius) {
        MemoryStore.checkNeighborhood(namespace, id, radius);
        return parts().db.read("read a memory's neighbors",
                c -> parts().tables.memories().neighborhood(c, namespace, id, radius));
    }

    @Override
    public final List<Memory> versions(String namespace, String id) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(id, "id");
        return parts().db.read("read a memory's versions",
                c -> SqlMemoryRow.versions(c, parts().tables.dialect(), namespace, id));
    }

    @Override
    public final void forEach(String namespace, MemoryFilter filter, Consumer<? super Memory> action) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(action, "action");
        forEachStored(namespace, filter, s -> action.accept(s.memory()));
    }

    @Override
    public final void forEachStored(String namespace, MemoryFilter filter, Consumer<? super StoredMemory> action) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(action, "action");
        List<StoredMemory> matching = parts().db.read("list memories",
                c -> parts().tables.memories().matching(c, namespace, filter));
        // The action runs with no connection held, so it may call back into the store.
        matching.forEach(action);
    }

    @Override
    public final long count(String namespace) {
        Objects.requireNonNull(namespace, "namespace");
        return parts().db.read("count memories", c -> parts().tables.memories().count(c, namespace));
    }

    @Override
    public final Set<String> authors(String namespace) {
        Objects.requireNonNull(namespace, "namespace");
        return parts().db.read("list authors", c -> SqlMemoryRow.authors(c, parts().tables.dialect(), namespace));
    }

    /** The version of the store's schema (see {@code docs/storage.md}). */
    public final int schemaVersion() {
        return parts().db.readPrimary("read the schema version", c -> parts().tables.dialect().schemaVersion(c));
    }

    /** How many of one namespace's memories have a vector. */
    public final long vectorCount(String namespace) {
        Objects.requireNonNull(namespace, "namespace");
        return parts().db.read("count vectors", c -> SqlVectors.count(c, parts().tables, namespace));
    }

    @Override
    public final Set<String> namespaces() {
        return parts().db.read("list namespaces", c -> parts().tables.memories().namespaces(c));
    }

    @Override
    public final void recordAccess(String namespace, Collection<String> ids, Instant at) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(ids, "ids");
        Objects.requireNonNull(at, "at");
        ids.forEach(id -> Objects.requireNonNull(id, "id"));
        if (ids.isEmpty()) {
            return;
        }
        parts().db.write("record access", c -> {
            parts().tables.counters().recordAccess(c, namespace, occurrences(ids),
                    ChronoUnit.MICROS.between(Instant.EPOCH, at));
            return null;
        });
    }

    @Override
    public final List<String> archive(String namespace, Collection<String> ids, Instant at) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(ids, "ids");
        Objects.requireNonNull(at, "at");
        List<String> unique = new ArrayList<>(new LinkedHashSet<>(ids));
        if (unique.isEmpty()) {
            return List.of();
        }
        return parts().db.write("archive memories", c -> {
            List<String> archived = parts().tables.versions().archive(c, namespace, unique, at);
            parts().tables.changes().logMemories(c, parts().origin, namespace, archived);
            return archived;
        });
    }

    @Override
    public final void recordEvidence(String namespace, Collection<String> ids) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(ids, "ids");
        ids.forEach(id -> Objects.requireNonNull(id, "id"));
        if (ids.isEmpty()) {
            return;
        }
        parts().db.write("record evidence", c -> {
            parts().tables.counters().recordEvidence(c, namespace, occurrences(ids));
            return null;
        });
    }

    /** How often each id occurs, by id; an id that occurs twice counts twice. */
    private static SortedMap<String, Integer> occurrences(Collection<String> ids) {
        SortedMap<String, Integer> out = new TreeMap<>();
        ids.forEach(id -> out.merge(id, 1, Integer::sum));
        return out;
    }

    @Override
    public final long lastChange() {
        return parts().db.read("read the last change", c -> parts().tables.changes().last(c));
    }

    @Override
    public final Changes changesSince(long after, int limit) {
        if (after < 0) {
            throw new IllegalArgumentException("change number must not be negative: " + after);
        }
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        String origin = parts().origin;
        return parts().db.read("read changes", c -> parts().tables.changes().since(c, after, limit, origin));
    }

    @Override
    public final Map<String, float[]> vectors(String namespace, Collection<String> ids) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(ids, "ids");
        List<String> unique = new ArrayList<>(new LinkedHashSet<>(ids));
        if (unique.isEmpty()) {
            return Map.of();
        }
        VectorSpace space = vectorSpace().orElse(null);
        if (space == null) {
            return Map.of();
        }
        return parts().db.read("read vectors",
                c -> SqlVectors.byIds(c, parts().tables, namespace, unique, space.dimension()));
    }

    @Override
    public final void putTrigger(Trigger trigger) {
        parts().triggers.put(trigger);
    }

    @Override
    public final boolean removeTrigger(String namespace, String keyword) {
        return parts().triggers.remove(namespace, keyword);
    }

    @Override
    public final List<Trigger> triggers(String namespace) {
        return parts().triggers.all(namespace);
    }

    @Override
    public final void putTokenCounts(String tokenizerKey, Collection<TokenCount> counts) {
        parts().tokenCounts.put(tokenizerKey, counts);
    }

    @Override
    public final Map<String, Integer> tokenCounts(String namespace, String tokenizerKey, Collection<String> ids) {
        return parts().tokenCounts.byIds(namespace, tokenizerKey, ids);
    }

    @Override
    public final void saveState(String namespace, String key, String value) {
        parts().state.saveState(namespace, key, value);
    }

    @Override
    public final void saveState(String namespace, String key, String value, Instant updatedAt) {
        parts().state.saveState(namespace, key, value, updatedAt);
    }

    @Override
    public final Optional<String> loadState(String namespace, String key) {
        return parts().state.loadState(namespace, key);
    }

    @Override
    public final boolean deleteState(String namespace, String key) {
        return parts().state.deleteState(namespace, key);
    }

    @Override
    public final List<State.Entry> listState(String namespace, boolean includePreview) {
        return parts().state.listState(namespace, includePreview);
    }

    @Override
    public final Map<String, String> searchState(String namespace, String glob, int limit) {
        return parts().state.searchState(namespace, glob, limit);
    }

    @Override
    public final int clearState(String namespace, String exceptPrefix) {
        return parts().state.clearState(namespace, exceptPrefix);
    }
}
