package dev.memfas.postgres;

import dev.memfas.sql.SqlCodec;
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

    /** The {@code schema_version} of {@code memfas_meta}. */
    @Override
    public int schemaVersion(Connection c) throws SQLException {
        return Schema.version(c);
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

    /** Binary transfer from the first run ({@link Database#binary}): bytes columns are not sent as hex text. */
    @Override
    public PreparedStatement prepare(Connection c, String sql) throws SQLException {
        return Database.binary(c.prepareStatement(sql));
    }

    @Override
    public List<String> idList(ResultSet rs, int column) throws SQLException {
        return Arrays.asList((String[]) rs.getArray(column).getArray());
    }

    /** A {@code bytea} in WTF-8, as text is kept ({@link SqlCodec}): PostgreSQL's {@code text} holds no NUL. */
    @Override
    public void setStateKey(PreparedStatement ps, int index, String key) throws SQLException {
        ps.setBytes(index, SqlCodec.encodeText(key));
    }

    @Override
    public String stateKey(ResultSet rs, int column) throws SQLException {
        return SqlCodec.decodeText(rs.getBytes(column));
    }
}
