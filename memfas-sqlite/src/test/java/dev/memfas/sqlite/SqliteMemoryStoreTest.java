package dev.memfas.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.MemfasException;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import dev.memfas.spi.Embeddings;
import dev.memfas.spi.LexicalHit;
import dev.memfas.spi.VectorSpace;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class SqliteMemoryStoreTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path dir;

    private static Memory memory(String namespace, String id, String text) {
        return Memory.builder(text).id(id).namespace(namespace).createdAt(T0).build();
    }

    // ---------------------------------------------------------------- counts

    @Test
    void vectorCount_countsOneNamespacesVectors_andFollowsDeletes() {
        VectorSpace space = new VectorSpace("test", 2);
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir.resolve("v.db"))) {
            store.upsertAll(List.of(memory("a", "1", "one"), memory("a", "2", "two")),
                    Embeddings.of(space, List.of(new float[] {1, 0}, new float[] {0, 1})));
            store.upsertAll(List.of(memory("b", "1", "one")), Embeddings.of(space, List.of(new float[] {1, 0})));
            store.upsertAll(List.of(memory("a", "3", "three")));

            assertThat(store.vectorCount("a")).isEqualTo(2);
            assertThat(store.vectorCount("b")).isEqualTo(1);
            store.delete("a", "1");
            assertThat(store.vectorCount("a")).isEqualTo(1);
            assertThat(store.vectorCount("none")).isZero();
        }
    }

    // ---------------------------------------------------------------- files that are not ours

    @Test
    void open_fileThatIsNotSqlite_throwsNamingTheFile_andLeavesItAlone() throws Exception {
        Path file = dir.resolve("notes.db");
        Files.writeString(file, "these are my notes, not a database\n".repeat(200));
        byte[] before = Files.readAllBytes(file);

        assertThatThrownBy(() -> SqliteMemoryStore.open(file))
                .isInstanceOf(MemfasException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("the file is not a SQLite database");
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
    }

    @Test
    void open_truncatedFile_throwsNamingTheFile() throws Exception {
        Path file = dir.resolve("memfas.db");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            List<Memory> batch = new ArrayList<>();
            for (int i = 0; i < 2000; i++) {
                batch.add(memory("default", "m" + i, "memory number " + i + " with some text ".repeat(5)));
            }
            store.upsertAll(batch);
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(raf.length() / 3);
        }

        assertThatThrownBy(() -> {
            try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
                store.count("default");
                store.searchLexical("default", "memory", 10);
                store.getAll("default", List.of("m1999"));
            }
        })
                .isInstanceOf(MemfasException.class)
                .hasMessageContaining(file.toString())
                .hasMessageMatching("(?s).*(corrupt or truncated|not a SQLite database).*");
    }

    @Test
    void open_inADirectoryThatDoesNotExist_throwsNamingIt() {
        Path file = dir.resolve("missing/sub/memfas.db");

        assertThatThrownBy(() -> SqliteMemoryStore.open(file))
                .isInstanceOf(MemfasException.class)
                .hasMessage("cannot open " + file + ": the directory " + file.getParent() + " does not exist");
    }

    @Test
    void open_inAReadOnlyDirectory_throwsSayingWhy() throws Exception {
        // Root ignores permission bits, so use a directory no one can create files in: /proc.
        Path readOnly = isRoot() ? Path.of("/proc") : Files.createDirectory(dir.resolve("ro"));
        if (!isRoot()) {
            Files.setPosixFilePermissions(readOnly, java.nio.file.attribute.PosixFilePermissions
                    .fromString("r-xr-xr-x"));
        }
        Path file = readOnly.resolve("memfas-test.db");

        assertThatThrownBy(() -> SqliteMemoryStore.open(file))
                .isInstanceOf(MemfasException.class)
                .hasMessageContaining(file.toString())
                .hasMessageMatching("(?s).*(cannot be opened or created|read-only).*");
        assertThat(file).doesNotExist();
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    @Test
    void open_fileFromANewerSchema_isRefused() throws Exception {
        Path file = dir.resolve("memfas.db");
        SqliteMemoryStore.open(file).close();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            s.execute("PRAGMA user_version = 99");
        }

        assertThatThrownBy(() -> SqliteMemoryStore.open(file))
                .isInstanceOf(MemfasException.class)
                .hasMessage("cannot open " + file + ": it was written by a newer memfas (schema version 99; "
                        + "this version reads up to " + Schema.MIGRATIONS.size() + ")");
    }

    @Test
    void open_newFile_isAtTheLatestSchemaVersion_inWalMode() throws Exception {
        Path file = dir.resolve("memfas.db");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            assertThat(store.schemaVersion()).isEqualTo(Schema.MIGRATIONS.size());
            assertThat(store.integrityCheck()).isEqualTo("ok");
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement();
                var rs = s.executeQuery("PRAGMA journal_mode")) {
            assertThat(rs.getString(1)).isEqualTo("wal");
        }
    }

    @Test
    void open_versionOneFile_isMigrated_andKeepsItsStorageOrder() throws Exception {
        Path file = dir.resolve("memfas.db");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            store.upsertAll(List.of(memory("default", "a", "first"), memory("default", "b", "second"),
                    memory("default", "c", "third")));
        }
        // Version 2 added the storage-order index, 3 the change log, 4 validity and versions: without them and at
        // version 1, this is a version-1 file.
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            s.execute("DROP INDEX memories_in_order");
            s.execute("DROP TABLE changes");
            s.execute("DROP TABLE memory_versions");
            for (String column : List.of("valid_from_s", "valid_from_ns", "valid_until_s", "valid_until_ns",
                    "supersedes", "superseded_by", "evidence_count", "archived_s", "archived_ns", "recorded_s",
                            "recorded_ns")) {
                s.execute("ALTER TABLE memories DROP COLUMN " + column);
            }
            s.execute("PRAGMA user_version = 1");
        }

        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            assertThat(store.schemaVersion()).isEqualTo(Schema.MIGRATIONS.size());
            assertThat(store.neighborhood("default", "b", 1)).extracting(m -> m.memory().id())
                    .containsExactly("a", "b", "c");
            Memory b = store.get("default", "b").orElseThrow().memory();
            assertThat(b.validFrom()).isNull();
            assertThat(b.validUntil()).isNull();
            assertThat(b.supersedes()).isEmpty();
            assertThat(b.supersededBy()).isNull();
            assertThat(store.get("default", "b").orElseThrow().evidenceCount()).isEqualTo(1);
            store.upsertAll(List.of(b.toBuilder().text("second, changed").build()));
            assertThat(store.versions("default", "b")).containsExactly(b);
            assertThat(store.integrityCheck()).isEqualTo("ok");
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement();
                var rs = s.executeQuery("SELECT count(*) FROM sqlite_master WHERE name = 'memories_in_order'")) {
            assertThat(rs.getInt(1)).isEqualTo(1);
        }
    }

    @Test
    void migration_thatFailsHalfway_leavesTheFileAtItsOldVersionUntouched() throws Exception {
        Path file = dir.resolve("memfas.db");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            store.upsertAll(List.of(memory("default", "a", "kept")));
        }
        List<List<String>> withBrokenNext = new ArrayList<>(Schema.MIGRATIONS);
        withBrokenNext.add(List.of("CREATE TABLE added_by_v2 (x INTEGER)", "ALTER TABLE memories ADD COLUMN y",
                "THIS IS NOT SQL"));

        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            assertThatThrownBy(() -> Schema.migrate(c, file, withBrokenNext))
                    .isInstanceOf(java.sql.SQLException.class);
            try (Statement s = c.createStatement()) {
                try (var rs = s.executeQuery("PRAGMA user_version")) {
                    assertThat(rs.getInt(1)).isEqualTo(Schema.MIGRATIONS.size());
                }
                try (var rs = s.executeQuery("SELECT count(*) FROM sqlite_master WHERE name = 'added_by_v2'")) {
                    assertThat(rs.getInt(1)).isZero();
                }
                try (var rs = s.executeQuery("SELECT count(*) FROM pragma_table_info('memories') WHERE name = 'y'")) {
                    assertThat(rs.getInt(1)).isZero();
                }
            }
        }
        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            assertThat(store.get("default", "a").orElseThrow().memory().text()).isEqualTo("kept");
            assertThat(store.integrityCheck()).isEqualTo("ok");
        }
    }

    // ---------------------------------------------------------------- locks

    @Test
    void write_lockedPastTheTimeout_throwsAndChangesNothing() throws Exception {
        Path file = dir.resolve("memfas.db");
        try (SqliteMemoryStore store = SqliteMemoryStore.builder(file).busyTimeout(Duration.ofMillis(200)).build()) {
            store.upsertAll(List.of(memory("default", "a", "before the lock")));
            try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + file);
                    Statement s = other.createStatement()) {
                s.execute("BEGIN EXCLUSIVE");

                assertThatThrownBy(() -> store.upsertAll(List.of(memory("default", "b", "blocked"))))
                        .isInstanceOf(MemfasException.class)
                        .hasMessage("cannot write memories in " + file + ": the database is locked by another "
                                + "connection or process (waited the busy timeout of 200 ms)");
                assertThat(store.count("default")).isEqualTo(1);
                s.execute("ROLLBACK");
            }
            store.upsertAll(List.of(memory("default", "b", "after the lock")));
            assertThat(store.count("default")).isEqualTo(2);
        }
    }

    // ---------------------------------------------------------------- exact text

    @Test
    void text_withNulLoneSurrogatesAndAMegabyte_readsBackExactly() {
        String big = "Ω≈ç√ 🧠 ".repeat((1 << 20) / 8 + 1).substring(0, Memory.MAX_TEXT_CHARS);
        List<String> texts = List.of("nul\u0000inside\u0000", "lone \ud800 high and \udfff low", big,
                "metadata-free \u001f\u001e separators");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir.resolve("memfas.db"))) {
            List<Memory> batch = new ArrayList<>();
            for (int i = 0; i < texts.size(); i++) {
                batch.add(Memory.builder(texts.get(i)).id("t" + i).createdAt(T0.plusNanos(123_456_789))
                        .metadata("k%", "v\u001f%1F\u001e\u0000").build());
            }
            store.upsertAll(batch);

            for (int i = 0; i < texts.size(); i++) {
                Memory m = store.get("default", "t" + i).orElseThrow().memory();
                assertThat(m).isEqualTo(batch.get(i));
            }
            assertThat(store.integrityCheck()).isEqualTo("ok");
        }
    }

    @Test
    void memoryText_over1MiB_isRefusedBeforeReachingTheStore() {
        String tenMegabytes = "x".repeat(10 * 1024 * 1024);
        assertThatThrownBy(() -> Memory.builder(tenMegabytes).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("memory text is too long: 10485760 chars (at most 1048576)");
    }

    // ---------------------------------------------------------------- through a curator, across restarts

    @Test
    void getContext_queryWithFtsSyntax_neverLeaksASyntaxError() {
        try (ContextCurator curator = Memfas.newBuilder().store(SqliteMemoryStore.open(dir.resolve("m.db")))
                .build()) {
            curator.remember(memory("default", "a", "near the river bank, select * from table"));
            for (String q : List.of("NEAR(", "\"", "*", "'); DROP TABLE memories; --", "river AND", "text:river",
                    "^river", "river*", "\"unbalanced", "NOT", "(((", "\u0000river", "river\ud800")) {
                ContextResponse r = curator.getContext(ContextRequest.builder(q).sessionId("s").build());
                assertThat(r.tokensUsed()).isLessThanOrEqualTo(r.budget());
            }
            assertThat(curator.getContext("NEAR( river", "s").memoryIds()).containsExactly("a");
        }
    }

    // ---------------------------------------------------------------- state and backup

    @Test
    void state_saveLoadListSearchDelete_perNamespace() {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir.resolve("m.db"))) {
            store.saveState("a", "session/1/topic", "kafka");
            store.saveState("a", "session/2/topic", "pasta \u0000 \ud800");
            store.saveState("a", "budget", "2000");
            store.saveState("b", "session/1/topic", "other tenant");
            store.saveState("a", "budget", "4000");

            assertThat(store.loadState("a", "budget")).contains("4000");
            assertThat(store.loadState("a", "missing")).isEmpty();
            assertThat(store.listState("a", false)).extracting(dev.memfas.State.Entry::key)
                    .containsExactly("budget", "session/1/topic", "session/2/topic");
            assertThat(store.searchState("a", "session/*/topic", 10))
                    .containsExactly(Map.entry("session/1/topic", "kafka"),
                            Map.entry("session/2/topic", "pasta \u0000 \ud800"));
            assertThat(store.searchState("b", "*", 10)).containsOnlyKeys("session/1/topic");
            assertThat(store.deleteState("a", "budget")).isTrue();
            assertThat(store.deleteState("a", "budget")).isFalse();
        }
    }

    @Test
    void backupTo_writesAConsistentCopy_andRefusesToOverwrite() {
        Path backup = dir.resolve("backup.db");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir.resolve("m.db"))) {
            store.upsertAll(List.of(memory("default", "a", "kafka")));
            store.backupTo(backup);
            assertThatThrownBy(() -> store.backupTo(backup))
                    .isInstanceOf(MemfasException.class)
                    .hasMessageContaining("the target already exists");
        }
        try (SqliteMemoryStore copy = SqliteMemoryStore.open(backup)) {
            assertThat(copy.get("default", "a").orElseThrow().memory().text()).isEqualTo("kafka");
            assertThat(copy.searchLexical("default", "kafka", 5)).extracting(LexicalHit::memoryId).containsExactly("a");
        }
    }

    @Test
    void savedState_isDatedByTheStoresClock() throws Exception {
        Path file = dir.resolve("clock.db");
        Instant then = Instant.parse("2031-05-06T07:08:09Z");
        try (SqliteMemoryStore store = SqliteMemoryStore.builder(file)
                .clock(java.time.Clock.fixed(then, java.time.ZoneOffset.UTC)).build()) {
            store.saveState("a", "k", "v");
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement s = c.createStatement();
                java.sql.ResultSet rs = s.executeQuery("SELECT updated_s FROM state WHERE key = 'k'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(then.getEpochSecond());
        }
    }

}
