package dev.memfas.postgres;

import dev.memfas.MemfasException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's schema as forward migrations. Migration {@code i} (0-based) takes a database from schema version
 * {@code i} to {@code i + 1} (kept in {@code memfas_meta}); all that are due run in one transaction under an advisory
 * lock, so two processes opening a new database at once migrate it once, and a database is always at exactly one
 * version. Never edit a released migration: add a new one.
 */
final class Schema {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresMemoryStore.class);
    /** The advisory lock key migrations hold: "memfas" in ASCII. */
    private static final long MIGRATION_LOCK = 0x6d656d666173L;

    private Schema() {}

    /** The schema version of the database; 0 before the first migration. */
    static int version(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT to_regclass('memfas_meta') IS NOT NULL")) {
            rs.next();
            if (!rs.getBoolean(1)) {
                return 0;
            }
        }
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT value FROM memfas_meta WHERE key = 'schema_version'")) {
            return rs.next() ? Integer.parseInt(rs.getString(1)) : 0;
        }
    }

    /**
     * Brings the database to the last migration, in one transaction on a connection in auto-commit mode.
     *
     * @throws MemfasException if the database was written by a newer memfas
     */
    static void migrate(Connection c, String where) throws SQLException {
        int latest = MIGRATIONS.size();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute("SELECT pg_advisory_xact_lock(" + MIGRATION_LOCK + ")");
            int version = version(c); // read under the lock: another process may have migrated meanwhile
            if (version > latest) {
                throw new MemfasException("cannot open " + where + ": its memfas tables were written by a newer memfas"
                        + " (schema version " + version + "; this version reads up to " + latest + ")");
            }
            for (int v = version; v < latest; v++) {
                for (String sql : MIGRATIONS.get(v)) {
                    s.execute(sql);
                }
            }
            if (version < latest) {
                s.execute("INSERT INTO memfas_meta (key, value) VALUES ('schema_version', '" + latest + "') "
                        + "ON CONFLICT (key) DO UPDATE SET value = excluded.value");
            }
            c.commit();
            if (version == 0) {
                LOG.debug("created the memfas tables in {} at schema version {}", where, latest);
            } else if (version < latest) {
                LOG.info("migrated the memfas tables in {} from schema version {} to {}", where, version, latest);
            }
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // The connection is gone; so is the transaction.
            }
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    /** The columns a memory's state is kept in, in the memories and in their earlier versions. */
    private static final String MEMORY_COLUMNS = """
                text bytea NOT NULL,
                source text NOT NULL,
                kind text NOT NULL,
                scope text NOT NULL,
                tags text[] NOT NULL,
                author text,
                created_s bigint NOT NULL,
                created_ns integer NOT NULL,
                updated_s bigint NOT NULL,
                updated_ns integer NOT NULL,
                pinned boolean NOT NULL,
                importance double precision NOT NULL,
                metadata bytea NOT NULL,
                access_count bigint NOT NULL DEFAULT 0,
                last_access_us bigint,
                expires_s bigint,
                expires_ns integer,
                valid_from_s bigint,
                valid_from_ns integer,
                valid_until_s bigint,
                valid_until_ns integer,
                supersedes text[] NOT NULL,
                superseded_by text,
                evidence_count bigint NOT NULL DEFAULT 1,
                archived_s bigint,
                archived_ns integer,
                recorded_s bigint,
                recorded_ns integer""";

    static final List<List<String>> MIGRATIONS = List.of(List.of(
            "CREATE TABLE memfas_meta (key text PRIMARY KEY, value text NOT NULL)",
            // seq is the storage order (neighborhood reads it); a replaced memory keeps its row and so its place.
            // lexemes: the text's tsvector ('english'), bound by the writer from a text PostgreSQL can hold;
            // lexeme_count: its length, the document length of BM25.
            "CREATE TABLE memfas_memories (\n"
                    + "    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,\n"
                    + "    namespace text NOT NULL,\n"
                    + "    id text NOT NULL,\n"
                    + "    lexemes tsvector NOT NULL,\n"
                    + "    lexeme_count integer NOT NULL,\n"
                    + MEMORY_COLUMNS + ",\n"
                    + "    UNIQUE (namespace, id))",
            "CREATE INDEX memfas_memories_in_order ON memfas_memories (namespace, seq)",
            "CREATE INDEX memfas_memories_lexemes ON memfas_memories USING gin (lexemes)",
            "CREATE INDEX memfas_memories_by_expiry ON memfas_memories (namespace, expires_s)"
                    + " WHERE expires_s IS NOT NULL",
            // Per namespace: how many memories and lexemes (BM25's N and average length), kept by every write.
            "CREATE TABLE memfas_namespace_stats (namespace text PRIMARY KEY, memories bigint NOT NULL,"
                    + " lexemes bigint NOT NULL)",
            // Apart from the memories, so that loading a namespace's vectors reads only vectors.
            "CREATE TABLE memfas_vectors (seq bigint PRIMARY KEY REFERENCES memfas_memories ON DELETE CASCADE,"
                    + " namespace text NOT NULL, id text NOT NULL, vector bytea NOT NULL)",
            "CREATE INDEX memfas_vectors_by_namespace ON memfas_vectors (namespace)",
            "CREATE TABLE memfas_token_counts (seq bigint NOT NULL REFERENCES memfas_memories ON DELETE CASCADE,"
                    + " tokenizer text NOT NULL, tokens integer NOT NULL, PRIMARY KEY (seq, tokenizer))",
            "CREATE TABLE memfas_versions (\n"
                    + "    namespace text NOT NULL,\n"
                    + "    id text NOT NULL,\n"
                    + "    version integer NOT NULL,\n"
                    + MEMORY_COLUMNS + ",\n"
                    + "    PRIMARY KEY (namespace, id, version))",
            "CREATE TABLE memfas_triggers (namespace text NOT NULL, keyword_key text NOT NULL, keyword text NOT NULL,"
                    + " hint bytea NOT NULL, memory_ids text[] NOT NULL, seq bigint GENERATED ALWAYS AS IDENTITY,"
                    + " PRIMARY KEY (namespace, keyword_key))",
            "CREATE TABLE memfas_state (namespace text NOT NULL, key bytea NOT NULL, value bytea NOT NULL,"
                    + " updated_s bigint NOT NULL, PRIMARY KEY (namespace, key))",
            // The change log other processes catch up from (SharedStore), and its counter: one row, updated last in
            // every write transaction, so that its lock orders the change numbers as the commits.
            "CREATE TABLE memfas_changes (seq bigint PRIMARY KEY, namespace text NOT NULL, kind text NOT NULL,"
                    + " memory_id text, origin text NOT NULL)",
            "CREATE TABLE memfas_change_counter (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),"
                    + " last bigint NOT NULL)",
            "INSERT INTO memfas_change_counter (last) VALUES (0)"),
            // 2: text is searched in each process (memfas-sql's lexical index), no longer by the database; a memory's
            // vector is looked up by namespace and id, as its row is.
            List.of("DROP INDEX memfas_memories_lexemes",
                    "ALTER TABLE memfas_memories DROP COLUMN lexemes, DROP COLUMN lexeme_count",
                    "ALTER TABLE memfas_namespace_stats DROP COLUMN lexemes",
                    "CREATE UNIQUE INDEX memfas_vectors_by_id ON memfas_vectors (namespace, id)",
                    "DROP INDEX memfas_vectors_by_namespace"));
}
