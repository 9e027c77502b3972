package dev.memfas.sql;

import dev.memfas.MemoryFilter;
import dev.memfas.spi.SharedStore.Changes;
import dev.memfas.spi.SharedStore.Kind;
import dev.memfas.spi.StoredMemory;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;

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
        /**
         * Deletes the memories of the given distinct ids, with their vectors, versions and token counts, and logs each
         * id as a change marked {@code origin}; returns how many there were.
         */
        int delete(Connection c, String origin, String namespace, List<String> ids) throws SQLException;

        /** A memory and its neighbors in storage order, {@code radius} on each side. */
        List<StoredMemory> neighborhood(Connection c, String namespace, String id, int radius) throws SQLException;

        /** The namespace's memories the filter lets through, in storage order. */
        List<StoredMemory> matching(Connection c, String namespace, MemoryFilter filter) throws SQLException;

        long count(Connection c, String namespace) throws SQLException;

        Set<String> namespaces(Connection c) throws SQLException;
    }

    /** The earlier versions of memories, and archiving. */
    public interface VersionRows {
        /** Archives those of the ids that are not yet; returns them. */
        List<String> archive(Connection c, String namespace, List<String> ids, Instant at) throws SQLException;
    }

    /**
     * The use counts kept on memory rows. Each call is given how often each id occurred, sorted by id: the order in
     * which a store that locks rows takes their locks.
     */
    public interface Counters {
        /**
         * Adds each id's occurrences to its access count, and makes {@code micros} (since the epoch) its last access if
         * later.
         */
        void recordAccess(Connection c, String namespace, SortedMap<String, Integer> occurrences, long micros)
                throws SQLException;

        /** Adds each id's occurrences to its evidence count. */
        void recordEvidence(Connection c, String namespace, SortedMap<String, Integer> occurrences)
                throws SQLException;
    }

    /** The change log other processes catch up from. */
    public interface ChangeRows {
        /** The number of the last change in the log, or 0. */
        long last(Connection c) throws SQLException;

        /** The changes after {@code after}, reading at most {@code limit}, leaving out those {@code origin} wrote. */
        Changes since(Connection c, long after, int limit, String origin) throws SQLException;

        /**
         * Records, within the write transaction of {@code c}, that all of a namespace's {@code kind} changed, for the
         * other processes that share the store ({@link dev.memfas.spi.SharedStore#changesSince}); {@code origin} marks
         * the store object that wrote it.
         */
        void logWhole(Connection c, String origin, String namespace, Kind kind) throws SQLException;

        /** Records, within the write transaction of {@code c}, that these memories were written or deleted. */
        void logMemories(Connection c, String origin, String namespace, List<String> ids) throws SQLException;
    }

    /**
     * The vectors table, read through one statement in the store's own schema: {@code select} is a SELECT of the memory
     * id and the vector of each of a namespace's memories that has one, whose one parameter is the namespace and which
     * ends in a condition that {@code AND} may extend; {@code idColumn} is its column of the memory id.
     */
    public record VectorRows(String select, String idColumn) {
        /** Checks both are given. */
        public VectorRows {
            Objects.requireNonNull(select, "select");
            Objects.requireNonNull(idColumn, "idColumn");
        }
    }

    /**
     * The search of the key-value state table by a glob, which each store runs its own way; the rest of the state is
     * written once, in the dialect.
     */
    public interface StateRows {
        /** The values of the keys that match the glob, at most {@code limit}, by key. */
        Map<String, String> search(Connection c, String namespace, String glob, int limit) throws SQLException;
    }
}
