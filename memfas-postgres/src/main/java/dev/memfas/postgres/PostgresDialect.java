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

    /**
     * One statement whatever the number of ids, each id found on its own through the {@code (namespace, id)} index: a
     * LATERAL subquery the planner may not merge into a join ({@code OFFSET 0}) and so runs once per id. With a plain
     * {@code id = ANY (?)} the index was the statistics' choice, and a namespace that grew since the table was last
     * analyzed looked small: 1,000 ids of a 100,000-memory namespace were found by reading all 100,000 rows (180 to
     * 490 ms, against 3 to 20 ms one by one).
     */
    @Override
    public void selectByIds(Connection c, String select, List<String> params, String idColumn, List<String> ids,
            Row row) throws SQLException {
        if (ids.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = prepare(c, lookUpEach(select + idColumn + " = memfas_ids.id"))) {
            ps.setArray(1, MemoriesTable.textArray(c, ids));
            for (int i = 0; i < params.size(); i++) {
                ps.setString(i + 2, params.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    row.accept(rs);
                }
            }
        }
    }

    /**
     * {@code select}, which reads the rows of one id ({@code memfas_ids.id}), run for each id of a {@code text[]}
     * bound first: see {@link #selectByIds}.
     */
    static String lookUpEach(String select) {
        return "SELECT memfas_rows.* FROM unnest(?::text[]) AS memfas_ids (id) CROSS JOIN LATERAL (" + select
                + " OFFSET 0) AS memfas_rows";
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
