package dev.memfas.sqlite;

import dev.memfas.sql.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * The SQLite store's SQL where the shared tables are concerned: tables by their plain names, a memory referred to by
 * its rowid, id lists joined in one text column ({@link Codec#joinIds}) and bound as {@code IN} lists.
 */
enum SqliteDialect implements SqlDialect {
    INSTANCE;

    /** The table's plain name; the file's meta table is {@code store_meta}, its versions {@code memory_versions}. */
    @Override
    public String table(String name) {
        return switch (name) {
            case "meta" -> "store_meta";
            case "versions" -> "memory_versions";
            default -> name;
        };
    }

    /** The file's {@code PRAGMA user_version}. */
    @Override
    public int schemaVersion(Connection c) throws SQLException {
        return Schema.version(c);
    }

    @Override
    public String memoryKey() {
        return "rowid";
    }

    @Override
    public String nextSequence(String table) {
        return "(SELECT coalesce(max(seq), 0) + 1 FROM " + table + ")";
    }

    /** {@code idColumn IN (?, ?, …)}, in chunks of {@link MemoriesTable#IN_CHUNK} ids. */
    @Override
    public void selectByIds(Connection c, String select, List<String> params, String idColumn, List<String> ids,
            Row row) throws SQLException {
        for (int from = 0, to; from < ids.size(); from = to) {
            to = Math.min(ids.size(), from + MemoriesTable.IN_CHUNK);
            List<String> chunk = ids.subList(from, to);
            try (PreparedStatement ps = prepare(c, select + idColumn + " IN (" + MemoriesTable.placeholders(
                    chunk.size()) + ")")) {
                int index = 1;
                for (String param : params) {
                    ps.setString(index++, param);
                }
                for (String id : chunk) {
                    ps.setString(index++, id);
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        row.accept(rs);
                    }
                }
            }
        }
    }

    @Override
    public void setIdList(Connection c, PreparedStatement ps, int index, List<String> ids) throws SQLException {
        ps.setString(index, Codec.joinIds(ids));
    }

    @Override
    public List<String> idList(ResultSet rs, int column) throws SQLException {
        return Codec.splitIds(rs.getString(column));
    }

    @Override
    public void setStateKey(PreparedStatement ps, int index, String key) throws SQLException {
        ps.setString(index, key);
    }

    @Override
    public String stateKey(ResultSet rs, int column) throws SQLException {
        return rs.getString(column);
    }
}
