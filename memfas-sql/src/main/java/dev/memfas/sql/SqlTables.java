package dev.memfas.sql;

import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.State;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.SharedStore.Changes;
import dev.memfas.spi.StoredMemory;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A SQL store's tables, as far as {@link AbstractSqlStore} reads and writes them: each store's own SQL over its own
 * schema, behind one narrow interface a table, and the dialect the shared tables (triggers, token counts) are written
 * in. The statements run in the caller's transaction; their arguments are
 * checked, and id lists distinct.
 */
public record SqlTables(SqlDialect dialect, MemoryRows memories, VersionRows versions, Counters counters,
        ChangeRows changes, VectorRows vectors, StateRows state) {
    /** Checks every table is given. */
    public SqlTables {
        Objects.requireNonNull(dialect, "dialect");
        Objects.requireNonNull(memories, "memories");
        Objects.requireNonNull(versions, "versions");
        Objects.requireNonNull(counters, "counters");
        Objects.requireNonNull(changes, "changes");
        Objects.requireNonNull(vectors, "vectors");
        Objects.requireNonNull(state, "state");
    }

    /** The memories table, and what the store knows of its namespaces. */
    public interface MemoryRows {
        /** The memories of the given ids that exist, by id. */
        Map<String, StoredMemory> byIds(Connection c, String namespace, List<String> ids) throws SQLException;

        /** A memory and its neighbors in storage order, {@code radius} on each side. */
        List<StoredMemory> neighborhood(Connection c, String namespace, String id, int radius) throws SQLException;

        /** The namespace's memories the filter lets through, in storage order. */
        List<StoredMemory> matching(Connection c, String namespace, MemoryFilter filter) throws SQLException;

        Set<String> authors(Connection c, String namespace) throws SQLException;

        long count(Connection c, String namespace) throws SQLException;

        Set<String> namespaces(Connection c) throws SQLException;
    }

    /** The earlier versions of memories, and archiving. */
    public interface VersionRows {
        /** The earlier versions of a memory, oldest first. */
        List<Memory> versions(Connection c, String namespace, String id) throws SQLException;

        /** Archives those of the ids that are not yet; returns them. */
        List<String> archive(Connection c, String namespace, List<String> ids, Instant at) throws SQLException;
    }

    /** The use counts kept on memory rows. */
    public interface Counters {
        /** Counts an access to each id, as often as it occurs, at {@code at}. */
        void recordAccess(Connection c, String namespace, Collection<String> ids, Instant at) throws SQLException;

        /** Counts each id, as often as it occurs, as evidence once more. */
        void recordEvidence(Connection c, String namespace, Collection<String> ids) throws SQLException;

        /** How often each id occurs, in {@code into}'s order; an id that occurs twice counts twice. */
        static Map<String, Integer> occurrences(Collection<String> ids, Map<String, Integer> into) {
            for (String id : ids) {
                into.merge(Objects.requireNonNull(id, "id"), 1, Integer::sum);
            }
            return into;
        }
    }

    /** The change log other processes catch up from. */
    public interface ChangeRows {
        /** The number of the last change in the log, or 0. */
        long last(Connection c) throws SQLException;

        /** The changes after {@code after}, reading at most {@code limit}, leaving out those {@code origin} wrote. */
        Changes since(Connection c, long after, int limit, String origin) throws SQLException;
    }

    /** The vectors table. */
    public interface VectorRows {
        /** Streams the namespace's vectors from the cursor, so that a large namespace's are never held twice. */
        void forEach(Connection c, String namespace, int dimension, MemoryStore.VectorConsumer action)
                throws SQLException;

        long count(Connection c, String namespace) throws SQLException;

        /** The vectors of the ids that have one, by id. */
        Map<String, float[]> byIds(Connection c, String namespace, Collection<String> ids, int dimension)
                throws SQLException;
    }

    /** The key-value state table; keys are checked ({@link dev.memfas.spi.StateStore#checkStateKey}). */
    public interface StateRows {
        void save(Connection c, String namespace, String key, String value, Instant at) throws SQLException;

        /** The value of the key, or null. */
        String load(Connection c, String namespace, String key) throws SQLException;

        boolean delete(Connection c, String namespace, String key) throws SQLException;

        List<State.Entry> entries(Connection c, String namespace, boolean withPreview) throws SQLException;

        /** The values of the keys that match the glob, at most {@code limit}, by key. */
        Map<String, String> search(Connection c, String namespace, String glob, int limit) throws SQLException;

        /** Deletes the namespace's keys but those that start with {@code exceptPrefix} (if not null); how many. */
        int clear(Connection c, String namespace, String exceptPrefix) throws SQLException;
    }
}
