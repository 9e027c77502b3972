package dev.memfas.sql;

import dev.memfas.Memory;
import dev.memfas.Scope;
import dev.memfas.spi.StoredMemory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A memory as a row of either store's memories table or versions table: the columns, how a row reads (the two stores
 * differ only in how an id list is kept, {@link SqlDialect#idList}), and the reads that need nothing of a store's own.
 */
public final class SqlMemoryRow {
    /** The columns of a memory, in the order {@link #read} reads them. */
    public static final String COLUMNS = "namespace, id, text, source, kind, scope, tags, author, created_s, "
            + "created_ns, updated_s, updated_ns, pinned, importance, metadata, access_count, last_access_us, "
            + "expires_s, expires_ns, valid_from_s, valid_from_ns, valid_until_s, valid_until_ns, supersedes, superseded_by, "
            + "evidence_count, archived_s, archived_ns, recorded_s, recorded_ns";

    private SqlMemoryRow() {}

    /** Reads a row of {@link #COLUMNS}. */
    public static StoredMemory read(ResultSet rs, SqlDialect dialect) throws SQLException {
        Memory m = new Memory(
                rs.getString(2),
                rs.getString(1),
                SqlCodec.decodeText(rs.getBytes(3)),
                rs.getString(4),
                rs.getString(5),
                Scope.parse(rs.getString(6)),
                dialect.idList(rs, 7),
                rs.getString(8),
                SqlCodec.instant(rs.getLong(9), rs.getLong(10)),
                SqlCodec.instant(rs.getLong(11), rs.getLong(12)),
                rs.getBoolean(13),
                rs.getDouble(14),
                SqlCodec.decodeMetadata(rs.getBytes(15)),
                instant(rs, 18),
                instant(rs, 20),
                instant(rs, 22),
                dialect.idList(rs, 24),
                rs.getString(25),
                instant(rs, 27),
                instant(rs, 29));
        long lastAccess = rs.getLong(17);
        Instant last = rs.wasNull() ? null : Instant.EPOCH.plus(lastAccess, ChronoUnit.MICROS);
        return new StoredMemory(m, rs.getLong(16), last, rs.getLong(26));
    }

    /** The instant in columns {@code at} and {@code at + 1}, or null. */
    private static Instant instant(ResultSet rs, int at) throws SQLException {
        long seconds = rs.getLong(at);
        if (rs.wasNull()) {
            return null;
        }
        return SqlCodec.instant(seconds, rs.getLong(at + 1));
    }

    /** The memories of the given distinct ids that exist, by id. */
    static Map<String, StoredMemory> byIds(Connection c, SqlDialect dialect, String namespace, List<String> ids)
            throws SQLException {
        Map<String, StoredMemory> out = new HashMap<>();
        dialect.selectByIds(c, "SELECT " + COLUMNS + " FROM " + dialect.table("memories") + " WHERE namespace = ? AND ",
                List.of(namespace), "id", ids, rs -> {
                    StoredMemory s = read(rs, dialect);
                    out.put(s.memory().id(), s);
                });
        return out;
    }

    /** The earlier states of one memory, oldest first. */
    static List<Memory> versions(Connection c, SqlDialect dialect, String namespace, String id) throws SQLException {
        List<Memory> out = new ArrayList<>();
        try (PreparedStatement ps = dialect.prepare(c, "SELECT " + COLUMNS + " FROM " + dialect.table("versions")
                + " WHERE namespace = ? AND id = ? ORDER BY version")) {
            ps.setString(1, namespace);
            ps.setString(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(read(rs, dialect).memory());
                }
            }
        }
        return out;
    }

    /** The distinct authors of one namespace's memories, sorted. */
    static Set<String> authors(Connection c, SqlDialect dialect, String namespace) throws SQLException {
        Set<String> out = new TreeSet<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT DISTINCT author FROM " + dialect.table("memories")
                + " WHERE namespace = ? AND author IS NOT NULL")) {
            ps.setString(1, namespace);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }
}
