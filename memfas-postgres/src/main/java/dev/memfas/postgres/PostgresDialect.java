package dev.memfas.postgres;

import dev.memfas.sql.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;

/**
 * The PostgreSQL store's SQL where the shared tables are concerned: tables prefixed {@code memfas_} (the database may
 * hold others), a memory referred to by its {@code seq}, id lists as {@code text[]}, bound whole as one array.
 */
enum PostgresDialect implements SqlDialect {
    INSTANCE;

    @Override
    public String table(String name) {
        return "memfas_" + name;
    }

    @Override
    public String memoryKey() {
        return "seq";
    }

    /** An identity column: PostgreSQL numbers the row. */
    @Override
    public String nextSequence(String table) {
        return "DEFAULT";
    }

    @Override
    public String idIn(String column, int count) {
        return column + " = ANY (?)";
    }

    @Override
    public int idsPerStatement() {
        return Integer.MAX_VALUE;
    }

    @Override
    public int setIds(Connection c, PreparedStatement ps, int index, List<String> ids) throws SQLException {
        ps.setArray(index, MemoriesTable.textArray(c, ids));
        return index + 1;
    }

    @Override
    public void setIdList(Connection c, PreparedStatement ps, int index, List<String> ids) throws SQLException {
        ps.setArray(index, MemoriesTable.textArray(c, ids));
    }

    @Override
    public List<String> idList(ResultSet rs, int column) throws SQLException {
        return Arrays.asList((String[]) rs.getArray(column).getArray());
    }
}
