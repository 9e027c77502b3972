package dev.memfas.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.MemfasException;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import dev.memfas.spi.LexicalHit;
import dev.memfas.spi.StoredMemory;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the PostgreSQL store does beyond the contract: opening, migrating, failing and recovering, searching. */
final class PostgresMemoryStoreTest {
    private static final Instant T0 = Instant.parse("2026-11-24T09:00:00Z");
    private String url;

    @BeforeEach
    void newDatabase() {
        url = EmbeddedPostgres.shared().newSchemaUrl();
    }

    private static Memory memory(String namespace, String id, String text) {
        return Memory.builder(text).id(id).namespace(namespace).createdAt(T0).build();
    }

    // ---------------------------------------------------------------- opening

    @Test
    void open_newDatabase_createsTheTablesAtTheLatestVersion_andTwoProcessesMayOpenItAtOnce() throws Exception {
        String fresh = EmbeddedPostgres.shared().newSchemaUrl();
        CompletableFuture<PostgresMemoryStore> a = CompletableFuture.supplyAsync(() -> PostgresMemoryStore.open(fresh));
        CompletableFuture<PostgresMemoryStore> b = CompletableFuture.supplyAsync(() -> PostgresMemoryStore.open(fresh));
        try (PostgresMemoryStore one = a.get(); PostgresMemoryStore two = b.get()) {
            assertThat(one.schemaVersion()).isEqualTo(two.schemaVersion()).isEqualTo(Schema.MIGRATIONS.size());
            one.upsertAll(List.of(memory("default", "a", "kafka retention")));
            assertThat(two.get("default", "a")).isPresent();
        }
    }

    @Test
    void open_databaseFromANewerSchema_isRefused() throws Exception {
        PostgresMemoryStore.open(url).close();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("UPDATE memfas_meta SET value = '99' WHERE key = 'schema_version'");
        }

        assertThatThrownBy(() -> PostgresMemoryStore.open(url))
                .isInstanceOf(MemfasException.class)
                .hasMessageStartingWith("cannot open jdbc:postgresql://127.0.0.1:")
                .hasMessageContaining("/postgres: its memfas tables were written by a newer memfas (schema version 99; "
                        + "this version reads up to " + Schema.MIGRATIONS.size() + ")");
    }

    @Test
    void open_serverNotListening_throwsNamingTheDatabase_neverThePassword() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String unreachable = "postgresql://ana:s3cret-pw@127.0.0.1:" + port + "/memfas?connectTimeout=2";

        assertThatThrownBy(() -> PostgresMemoryStore.open(unreachable))
                .isInstanceOf(MemfasException.class)
                .hasMessageStartingWith("cannot create or migrate the memfas tables in jdbc:postgresql://127.0.0.1:"
                        + port + "/memfas: the server cannot be reached")
                .message().doesNotContain("s3cret-pw");
    }

    @Test
    void url_libpqForm_isReadAsJdbc_andShownWithoutSecrets() {
        PostgresUrl u = PostgresUrl.parse("postgresql://ana:p%40ss@db.example:5433/memfas?sslmode=require");
        assertThat(u.jdbcUrl()).isEqualTo("jdbc:postgresql://db.example:5433/memfas?sslmode=require");
        assertThat(u.user()).isEqualTo("ana");
        assertThat(u.password()).isEqualTo("p@ss");
        assertThat(u.display()).isEqualTo("jdbc:postgresql://db.example:5433/memfas").doesNotContain("p@ss");
        assertThat(PostgresUrl.parse("jdbc:postgresql://h/db?user=u&password=x").display())
                .isEqualTo("jdbc:postgresql://h/db");
        assertThat(PostgresUrl.parse("postgres:///memfas").jdbcUrl()).isEqualTo("jdbc:postgresql://localhost/memfas");
        assertThatThrownBy(() -> PostgresUrl.parse("mysql://root:pw@h/db"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not a PostgreSQL URL (jdbc:postgresql://host/db or postgresql://user@host/db): "
                        + "'mysql://h/db'");
    }

    @Test
    void builder_overTheCallersDataSource_borrowsAndGivesBack_andLeavesItOpen() throws Exception {
        org.postgresql.ds.PGSimpleDataSource ds = new org.postgresql.ds.PGSimpleDataSource();
        ds.setURL(url);
        try (PostgresMemoryStore store = PostgresMemoryStore.builder(ds).build()) {
            store.upsertAll(List.of(memory("default", "a", "kafka retention is seven days")));
            assertThat(store.searchLexical("default", "retention", 5)).extracting(LexicalHit::memoryId)
                    .containsExactly("a");
        }
        try (Connection c = ds.getConnection()) {
            assertThat(c.isValid(2)).isTrue();
        }
        assertThatThrownBy(() -> PostgresMemoryStore.builder(url).connections(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("connections must be in [1, 256]: 0");
    }

    // ---------------------------------------------------------------- failing and recovering

    @Test
    void serverRestart_callsFailClearlyWhileDown_thenGoOnWithEveryAcknowledgedWrite() throws Exception {
        try (EmbeddedPostgres server = EmbeddedPostgres.startNew();
                PostgresMemoryStore store = PostgresMemoryStore.open(server.jdbcUrl())) {
            store.upsertAll(List.of(memory("default", "a", "written before the restart")));

            server.stop();
            assertThatThrownBy(() -> store.upsertAll(List.of(memory("default", "b", "while down"))))
                    .isInstanceOf(MemfasException.class)
                    .hasMessageContaining("cannot write memories in jdbc:postgresql://127.0.0.1:" + server.port()
                            + "/postgres: the server cannot be reached or closed the connection");
            assertThatThrownBy(() -> store.count("default")).isInstanceOf(MemfasException.class);

            server.start();
            assertThat(store.get("default", "a").orElseThrow().memory().text()).isEqualTo("written before the restart");
            store.upsertAll(List.of(memory("default", "c", "written after the restart")));
            assertThat(store.count("default")).isEqualTo(2);
            assertThat(store.get("default", "b")).isEmpty();
        }
    }

    @Test
    void serverRestart_idleConnectionsAreNotAnError_readsGoOnOnNewOnes() throws Exception {
        try (EmbeddedPostgres server = EmbeddedPostgres.startNew();
                PostgresMemoryStore store = PostgresMemoryStore.builder(server.jdbcUrl()).connections(4).build()) {
            store.upsertAll(List.of(memory("default", "a", "kafka retention is seven days")));
            // Four connections in the store's pool, all idle.
            List<CompletableFuture<Long>> reads = new ArrayList<>();
            java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(4);
            for (int i = 0; i < 4; i++) {
                reads.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        together.await();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    return store.count("default");
                }));
            }
            for (CompletableFuture<Long> r : reads) {
                assertThat(r.get()).isEqualTo(1);
            }

            server.stop();
            server.start();

            for (int i = 0; i < 6; i++) {
                assertThat(store.searchLexical("default", "retention", 5)).extracting(LexicalHit::memoryId)
                        .containsExactly("a");
            }
        }
    }

    // ---------------------------------------------------------------- searching

    @Test
    void searchLexical_ranksLikeBm25_rareWordsAndShortTextsFirst() {
        try (PostgresMemoryStore store = PostgresMemoryStore.open(url)) {
            List<Memory> batch = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                batch.add(memory("default", "common" + i, "the deploy pipeline run number " + i));
            }
            batch.add(memory("default", "rare", "the deploy of the ledger service"));
            batch.add(memory("default", "long", "ledger " + "padding words here ".repeat(40)));
            store.upsertAll(batch);

            List<LexicalHit> hits = store.searchLexical("default", "ledger deploy", 30);

            // "ledger" is in 2 of 22 memories, "deploy" in 21: the one with both first, then the short rare one.
            assertThat(hits).extracting(LexicalHit::memoryId).startsWith("rare", "long");
            assertThat(hits).hasSize(22);
            assertThat(hits.get(0).score()).isGreaterThan(hits.get(1).score());
            // Stemmed (Porter, as SQLite's FTS5): "deploying" finds every "deploy".
            assertThat(store.searchLexical("default", "Deploying", 30)).hasSize(21)
                    .extracting(LexicalHit::memoryId).contains("rare").doesNotContain("long");
        }
    }

    @Test
    void text_withNulLoneSurrogatesAndAMegabyte_readsBackExactly_andIsFoundByItsFirstWords() {
        String big = "zeppelin " + "x".repeat(Memory.MAX_TEXT_CHARS - 30) + " trailing";
        List<String> texts = List.of("nul\u0000inside\u0000", "lone \ud800 high and \udfff low", big);
        try (PostgresMemoryStore store = PostgresMemoryStore.open(url)) {
            for (int i = 0; i < texts.size(); i++) {
                store.upsertAll(List.of(Memory.builder(texts.get(i)).id("t" + i).createdAt(T0)
                        .metadata("k%", "v\u001f%1F\u001e\u0000").build()));
            }
            for (int i = 0; i < texts.size(); i++) {
                StoredMemory s = store.get("default", "t" + i).orElseThrow();
                assertThat(s.memory().text()).isEqualTo(texts.get(i));
                assertThat(s.memory().metadata()).containsExactly(Map.entry("k%", "v\u001f%1F\u001e\u0000"));
            }
            assertThat(store.searchLexical("default", "zeppelin", 5)).extracting(LexicalHit::memoryId)
                    .containsExactly("t2");
            assertThat(store.searchLexical("default", "inside", 5)).extracting(LexicalHit::memoryId)
                    .containsExactly("t0");
        }
    }

    @Test
    void getContext_queryWithTsquerySyntax_neverLeaksASyntaxError() {
        try (ContextCurator curator = Memfas.newBuilder().store(PostgresMemoryStore.open(url)).build()) {
            curator.remember(memory("default", "a", "near the river bank, select * from table"));
            for (String q : List.of("river & !bank", "'river':*", "river <-> bank", "(((", "\\", "'", "''", "a:b",
                    "'); DROP TABLE memfas_memories; --", "\u0000river", "river\ud800", "ri\\'ver")) {
                ContextResponse r = curator.getContext(ContextRequest.builder(q).sessionId("s").build());
                assertThat(r.tokensUsed()).isLessThanOrEqualTo(r.budget());
            }
            assertThat(curator.getContext("river & !bank", "s").memoryIds()).containsExactly("a");
            assertThat(curator.stats().memories()).isEqualTo(1);
        }
    }

    // ---------------------------------------------------------------- through a curator, across processes

    @Test
    void state_keysWithNulAndSurrogates_saveLoadListSearchAndClear() {
        try (PostgresMemoryStore store = PostgresMemoryStore.open(url)) {
            store.saveState("a", "session/1/topic", "kafka");
            store.saveState("a", "session/2/topic", "pasta \u0000 \ud800");
            store.saveState("a", "odd\u0000key\ud800", "v");
            store.saveState("a", "memfas.last_seen", "t");
            store.saveState("b", "session/1/topic", "other tenant");

            assertThat(store.loadState("a", "odd\u0000key\ud800")).contains("v");
            assertThat(store.searchState("a", "session/*/topic", 10))
                    .containsExactly(Map.entry("session/1/topic", "kafka"),
                            Map.entry("session/2/topic", "pasta \u0000 \ud800"));
            assertThat(store.searchState("a", "session/[12]/topic", 1)).containsOnlyKeys("session/1/topic");
            assertThat(store.searchState("b", "*", 10)).containsOnlyKeys("session/1/topic");
            assertThat(store.clearState("a", "memfas.")).isEqualTo(3);
            assertThat(store.listState("a", false)).extracting(dev.memfas.State.Entry::key)
                    .containsExactly("memfas.last_seen");
        }
    }
}
