package dev.memfas.sqlite;

import dev.memfas.MemfasException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's schema as forward migrations. Migration {@code i} (0-based) takes a file from {@code user_version i} to
 * {@code i + 1}; each runs in one transaction together with the version bump, so a file is always at exactly one
 * version. Never edit a released migration: add a new one.
 */
final class Schema {
    private static final Logger LOG = LoggerFactory.getLogger(SqliteMemoryStore.class);

    private Schema() {}

    /** Brings the file to the last of the given migrations, one transaction per migration. */
    /** The schema version of the file ({@code PRAGMA user_version}). */
    static int version(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA user_version")) {
            return rs.getInt(1);
        }
    }

    static void migrate(Connection writer, Path file, List<List<String>> migrations) throws SQLException {
        int version;
        try (Statement s = writer.createStatement(); ResultSet rs = s.executeQuery("PRAGMA user_version")) {
            version = rs.getInt(1);
        }
        int latest = migrations.size();
        if (version > latest) {
            throw new MemfasException("cannot open " + file + ": it was written by a newer memfas (schema version "
                    + version + "; this version reads up to " + latest + ")");
        }
        for (int v = version; v < latest; v++) {
            try (Statement s = writer.createStatement()) {
                s.execute("BEGIN IMMEDIATE");
                try {
                    // Re-read under the write lock: another process may have migrated meanwhile.
                    int current;
                    try (ResultSet rs = s.executeQuery("PRAGMA user_version")) {
                        current = rs.getInt(1);
                    }
                    if (current == v) {
                        for (String sql : migrations.get(v)) {
                            s.execute(sql);
                        }
                        s.execute("PRAGMA user_version = " + (v + 1));
                    }
                    s.execute("COMMIT");
                } catch (SQLException | RuntimeException e) {
                    SqliteDatabase.rollbackQuietly(s);
                    throw e;
                }
            }
        }
        if (version == 0 && latest > 0) {
            // A new file: every migration ran, but nothing was migrated. Not news for the user.
            LOG.debug("created {} at schema version {}", file, latest);
        } else if (version < latest) {
            LOG.info("migrated {} from schema version {} to {}", file, version, latest);
        }
    }

    static final List<List<String>> MIGRATIONS = List.of(
            List.of(
                    """
                    CREATE TABLE memories (
                        rowid INTEGER PRIMARY KEY,
                        namespace TEXT NOT NULL,
                        id TEXT NOT NULL,
                        text BLOB NOT NULL,
                        source TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        scope TEXT NOT NULL,
                        tags TEXT NOT NULL,
                        author TEXT,
                        created_s INTEGER NOT NULL,
                        created_ns INTEGER NOT NULL,
                        updated_s INTEGER NOT NULL,
                        updated_ns INTEGER NOT NULL,
                        pinned INTEGER NOT NULL,
                        importance REAL NOT NULL,
                        metadata BLOB NOT NULL,
                        access_count INTEGER NOT NULL DEFAULT 0,
                        last_access_us INTEGER,
                        expires_s INTEGER,
                        expires_ns INTEGER,
                        UNIQUE (namespace, id)
                    )""",
                    "CREATE INDEX memories_by_time ON memories (namespace, created_s, created_ns)",
                    "CREATE INDEX memories_by_expiry ON memories (namespace, expires_s) WHERE expires_s IS NOT NULL",
                    """
                    CREATE VIRTUAL TABLE memories_fts USING fts5(
                        text, content='', contentless_delete=1, tokenize='porter unicode61')""",
                    "CREATE TABLE vectors (rowid INTEGER PRIMARY KEY, vector BLOB NOT NULL)",
                    """
                    CREATE TABLE token_counts (
                        rowid INTEGER NOT NULL,
                        tokenizer TEXT NOT NULL,
                        tokens INTEGER NOT NULL,
                        PRIMARY KEY (rowid, tokenizer)
                    ) WITHOUT ROWID""",
                    """
                    CREATE TABLE triggers (
                        namespace TEXT NOT NULL,
                        keyword_key TEXT NOT NULL,
                        keyword TEXT NOT NULL,
                        hint BLOB NOT NULL,
                        memory_ids TEXT NOT NULL,
                        seq INTEGER NOT NULL,
                        PRIMARY KEY (namespace, keyword_key)
                    )""",
                    """
                    CREATE TABLE state (
                        namespace TEXT NOT NULL,
                        key TEXT NOT NULL,
                        value BLOB NOT NULL,
                        updated_s INTEGER NOT NULL,
                        PRIMARY KEY (namespace, key)
                    )""",
                    "CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"),
            // Storage order within a namespace: an index on (namespace) is ordered by rowid within each namespace,
            // and rowids grow with each insert and stay when a memory is replaced.
            List.of("CREATE INDEX memories_in_order ON memories (namespace)"),
            // The change log other processes catch up from (SharedStore): one row per memory written or deleted, per
            // namespace whose triggers changed, per namespace re-embedded. A bounded window is kept.
            List.of("""
                    CREATE TABLE changes (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        namespace TEXT NOT NULL,
                        scope TEXT NOT NULL,
                        memory_id TEXT,
                        origin TEXT NOT NULL
                    )"""),
            // Validity, supersession, evidence and archiving on every memory, and the earlier states of replaced
            // memories (the same columns as memories, numbered per memory from 1).
            List.of(
                    "ALTER TABLE memories ADD COLUMN valid_from_s INTEGER",
                    "ALTER TABLE memories ADD COLUMN valid_from_ns INTEGER",
                    "ALTER TABLE memories ADD COLUMN valid_until_s INTEGER",
                    "ALTER TABLE memories ADD COLUMN valid_until_ns INTEGER",
                    "ALTER TABLE memories ADD COLUMN supersedes TEXT NOT NULL DEFAULT ''",
                    "ALTER TABLE memories ADD COLUMN superseded_by TEXT",
                    "ALTER TABLE memories ADD COLUMN evidence_count INTEGER NOT NULL DEFAULT 1",
                    "ALTER TABLE memories ADD COLUMN archived_s INTEGER",
                    "ALTER TABLE memories ADD COLUMN archived_ns INTEGER",
                    "ALTER TABLE memories ADD COLUMN recorded_s INTEGER",
                    "ALTER TABLE memories ADD COLUMN recorded_ns INTEGER",
                    """
                    CREATE TABLE memory_versions (
                        namespace TEXT NOT NULL,
                        id TEXT NOT NULL,
                        version INTEGER NOT NULL,
                        text BLOB NOT NULL,
                        source TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        scope TEXT NOT NULL,
                        tags TEXT NOT NULL,
                        author TEXT,
                        created_s INTEGER NOT NULL,
                        created_ns INTEGER NOT NULL,
                        updated_s INTEGER NOT NULL,
                        updated_ns INTEGER NOT NULL,
                        pinned INTEGER NOT NULL,
                        importance REAL NOT NULL,
                        metadata BLOB NOT NULL,
                        access_count INTEGER NOT NULL,
                        last_access_us INTEGER,
                        expires_s INTEGER,
                        expires_ns INTEGER,
                        valid_from_s INTEGER,
                        valid_from_ns INTEGER,
                        valid_until_s INTEGER,
                        valid_until_ns INTEGER,
                        supersedes TEXT NOT NULL,
                        superseded_by TEXT,
                        evidence_count INTEGER NOT NULL,
                        archived_s INTEGER,
                        archived_ns INTEGER,
                        recorded_s INTEGER,
                        recorded_ns INTEGER,
                        PRIMARY KEY (namespace, id, version)
                    ) WITHOUT ROWID"""),
            // 5: text is searched per namespace in the process (dev.memfas.sql.LexicalIndexes); FTS5 is no longer read.
            List.of("DROP TABLE IF EXISTS memories_fts"));
}
