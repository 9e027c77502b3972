package dev.memfas.postgres;

import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.spi.SharedStore.Changes;
import dev.memfas.spi.StoredMemory;
import dev.memfas.sql.SqlStatements;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The PostgreSQL store's statements behind the calls it answers as the SQLite store does: its tables' own. */
enum PostgresStatements implements SqlStatements {
    INSTANCE;

    @Override
    public Map<String, StoredMemory> memories(Connection c, String namespace, List<String> ids) throws SQLException {
        return MemoriesTable.byIds(c, namespace, ids);
    }

    @Override
    public List<StoredMemory> neighborhood(Connection c, String namespace, String id, int radius)
            throws SQLException {
        return MemoriesTable.neighborhood(c, namespace, id, radius);
    }

    @Override
    public List<Memory> versions(Connection c, String namespace, String id) throws SQLException {
        return VersionsTable.versions(c, namespace, id);
    }

    @Override
    public List<StoredMemory> matching(Connection c, String namespace, MemoryFilter filter) throws SQLException {
        return MemoriesTable.matching(c, namespace, filter);
    }

    /** Read from the namespaces table, which every write keeps counted. */
    @Override
    public long count(Connection c, String namespace) throws SQLException {
        return NamespacesTable.count(c, namespace);
    }

    @Override
    public Set<String> authors(Connection c, String namespace) throws SQLException {
        return MemoriesTable.authors(c, namespace);
    }

    @Override
    public long vectorCount(Connection c, String namespace) throws SQLException {
        return VectorsTable.count(c, namespace);
    }

    @Override
    public Set<String> namespaces(Connection c) throws SQLException {
        return NamespacesTable.all(c);
    }

    @Override
    public void recordAccess(Connection c, String namespace, Collection<String> ids, Instant at) throws SQLException {
        Counters.recordAccess(c, namespace, Counters.occurrences(ids), at);
    }

    @Override
    public void recordEvidence(Connection c, String namespace, Collection<String> ids) throws SQLException {
        Counters.recordEvidence(c, namespace, Counters.occurrences(ids));
    }

    @Override
    public List<String> archive(Connection c, String namespace, List<String> ids, Instant at) throws SQLException {
        return VersionsTable.archive(c, namespace, ids, at);
    }

    @Override
    public long lastChange(Connection c) throws SQLException {
        return ChangeLog.last(c);
    }

    @Override
    public Changes changesSince(Connection c, long after, int limit, String origin) throws SQLException {
        return ChangeLog.since(c, after, limit, origin);
    }

    @Override
    public Map<String, float[]> vectors(Connection c, String namespace, Collection<String> ids, int dimension)
            throws SQLException {
        return VectorsTable.byIds(c, namespace, ids, dimension);
    }
}
