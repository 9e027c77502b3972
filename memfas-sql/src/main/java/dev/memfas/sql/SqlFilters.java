package dev.memfas.sql;

import dev.memfas.MemoryFilter;
import dev.memfas.spi.StoredMemory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** How both SQL stores list the memories a {@link MemoryFilter} lets through: its columns in SQL, the rest in Java. */
public final class SqlFilters {
    private SqlFilters() {}

    /** Reads one row of a result into a value. */
    @FunctionalInterface
    public interface RowReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    /**
     * The namespace's memories that the filter's columns select ({@code select} ends in {@code WHERE namespace = ?})
     * and the filter accepts, in the order {@code orderBy} gives (empty for the table's), each read by {@code row}.
     */
    public static List<StoredMemory> matching(Connection c, String select, String orderBy, String namespace,
            MemoryFilter filter, RowReader<StoredMemory> row) throws SQLException {
        StringBuilder sql = new StringBuilder(select);
        List<Object> args = new ArrayList<>();
        args.add(namespace);
        if (filter.since() != null) {
            sql.append(" AND (created_s > ? OR (created_s = ? AND created_ns >= ?))");
            args.add(filter.since().getEpochSecond());
            args.add(filter.since().getEpochSecond());
            args.add((long) filter.since().getNano());
        }
        if (filter.author() != null) {
            sql.append(" AND author = ?");
            args.add(filter.author());
        }
        if (filter.kind() != null) {
            sql.append(" AND kind = ?");
            args.add(filter.kind());
        }
        if (filter.scope() != null) {
            sql.append(" AND scope = ?");
            args.add(filter.scope().toString());
        }
        if (filter.pinnedOnly()) {
            // TRUE is PostgreSQL's boolean and SQLite's 1.
            sql.append(" AND pinned = TRUE");
        }
        if (filter.archived() != null) {
            sql.append(filter.archived() ? " AND archived_s IS NOT NULL" : " AND archived_s IS NULL");
        }
        sql.append(orderBy);
        List<StoredMemory> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            for (int i = 0; i < args.size(); i++) {
                if (args.get(i) instanceof Long l) {
                    ps.setLong(i + 1, l);
                } else {
                    ps.setString(i + 1, (String) args.get(i));
                }
            }
            // Streamed in batches where the driver would otherwise read a large namespace whole.
            ps.setFetchSize(1000);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    StoredMemory s = row.read(rs);
                    if (filter.test(s.memory())) {
                        out.add(s);
                    }
                }
            }
        }
        return out;
    }
}
