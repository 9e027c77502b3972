package dev.memfas.sql;

import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.spi.SharedStore.Changes;
import dev.memfas.spi.StoredMemory;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The statements behind the calls both SQL stores answer alike, each store's own SQL over its own tables;
 * {@link AbstractSqlStore} checks the arguments and runs each in a transaction. Arguments are checked and distinct.
 */
public interface SqlStatements {
    /** The memories of the given ids that exist, by id. */
    Map<String, StoredMemory> memories(Connection c, String namespace, List<String> ids) throws SQLException;

    /** A memory and its neighbors in storage order, {@code radius} on each side. */
    List<StoredMemory> neighborhood(Connection c, String namespace, String id, int radius) throws SQLException;

    /** The earlier versions of a memory, oldest first. */
    List<Memory> versions(Connection c, String namespace, String id) throws SQLException;

    /** The namespace's memories the filter lets through, in storage order. */
    List<StoredMemory> matching(Connection c, String namespace, MemoryFilter filter) throws SQLException;

    long count(Connection c, String namespace) throws SQLException;

    Set<String> authors(Connection c, String namespace) throws SQLException;

    long vectorCount(Connection c, String namespace) throws SQLException;

    Set<String> namespaces(Connection c) throws SQLException;

    /** Counts an access to each id, as often as it occurs, at {@code at}. */
    void recordAccess(Connection c, String namespace, Collection<String> ids, Instant at) throws SQLException;

    /** Counts each id, as often as it occurs, as evidence once more. */
    void recordEvidence(Connection c, String namespace, Collection<String> ids) throws SQLException;

    /** Archives those of the ids that are not yet; returns them. */
    List<String> archive(Connection c, String namespace, List<String> ids, Instant at) throws SQLException;

    /** The number of the last change in the log, or 0. */
    long lastChange(Connection c) throws SQLException;

    /** The changes after {@code after}, reading at most {@code limit}, leaving out those {@code origin} wrote. */
    Changes changesSince(Connection c, long after, int limit, String origin) throws SQLException;

    /** The vectors of the ids that have one, by id. */
    Map<String, float[]> vectors(Connection c, String namespace, Collection<String> ids, int dimension)
            throws SQLException;
}
