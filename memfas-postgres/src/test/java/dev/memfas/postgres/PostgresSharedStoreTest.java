package dev.memfas.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.RecallHit;
import dev.memfas.RecallRequest;
import dev.memfas.core.Memfas;
import dev.memfas.spi.LexicalHit;
import dev.memfas.spi.SharedStore;
import dev.memfas.testkit.SharedStoreContract.TopicEmbedder;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Curators and stores over one database, each with a store object of its own, as processes on several machines would
 * be: each sees the others' writes, and the change log numbers them in commit order without gaps.
 */
final class PostgresSharedStoreTest {
    private String url;

    @BeforeEach
    void newDatabase() {
        url = EmbeddedPostgres.shared().newSchemaUrl();
    }

    /** One vector candidate per turn: what else joins does so only by BM25, triggers or pinning. */
    private ContextCurator curator() {
        return Memfas.newBuilder().store(PostgresMemoryStore.open(url)).embedder(new TopicEmbedder())
                .candidateLimit(1).build();
    }

    private static List<String> ids(List<RecallHit> hits) {
        return hits.stream().map(h -> h.memory().id()).toList();
    }

    @Test
    void anIdleCurator_isToldOfAnothersCommits_andCatchesUpBeforeItsNextTurn() throws Exception {
        try (PostgresMemoryStore watched = PostgresMemoryStore.open(url);
                ContextCurator writer = curator();
                ContextCurator idle = Memfas.newBuilder().store(PostgresMemoryStore.open(url))
                        .embedder(new TopicEmbedder()).build()) {
            CountDownLatch told = new CountDownLatch(1);
            try (AutoCloseable handle = watched.onChanges(told::countDown)) {
                writer.remember(Memory.builder("We deploy on Tuesdays.").id("deploy").build());
                assertThat(told.await(30, TimeUnit.SECONDS)).as("notified").isTrue();
            }
            assertThat(idle.recall(RecallRequest.builder("when do we ship?").limit(5).build()))
                    .hasSize(1); // its index of the namespace is loaded
            for (int i = 0; i < 5; i++) {
                writer.remember(Memory.builder("Release notes go out on Fridays " + i).id("r" + i).build());
            }
            // No turn, recall or write on the idle curator: only its listener can fill its index.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (idle.stats().vectors() < 6 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(idle.stats().vectors()).isEqualTo(6);
        }
    }

    @Test
    void concurrentWritersOfTheSameIds_replaceEachOther_keepingEveryStateAsAVersion() throws Exception {
        int writers = 4;
        int rounds = 5;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            done.add(pool.submit(() -> {
                try (PostgresMemoryStore store = PostgresMemoryStore.open(url)) {
                    for (int round = 0; round < rounds; round++) {
                        for (int from = 0; from < 50; from += 10) {
                            List<Memory> batch = new ArrayList<>();
                            for (int i = from; i < from + 10; i++) {
                                batch.add(Memory.builder("writer " + writer + " round " + round).id("m" + i)
                                        .createdAt(Instant.EPOCH).build());
                            }
                            store.upsertAll(batch);
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
        try (PostgresMemoryStore store = PostgresMemoryStore.open(url)) {
            assertThat(store.count("default")).isEqualTo(50);
            for (int i = 0; i < 50; i++) {
                assertThat(store.versions("default", "m" + i)).hasSize(writers * rounds - 1);
            }
            assertThat(store.searchLexical("default", "writer", 100)).hasSize(50);
            assertThat(store.neighborhood("default", "m0", 2)).extracting(s -> s.memory().id())
                    .containsExactly("m0", "m1", "m2");
        }
    }

    /** The database as a backup taken before anything was written left it: no memories, the change log from 0. */
    private void restoreEmptyBackup() throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("DELETE FROM memfas_memories");
            s.execute("DELETE FROM memfas_changes");
            s.execute("UPDATE memfas_namespace_stats SET memories = 0");
            s.execute("UPDATE memfas_change_counter SET last = 0");
        }
    }

    @Test
    void aDatabaseThatWentBack_isSearchedForWordsAfresh() throws Exception {
        try (PostgresMemoryStore reader = PostgresMemoryStore.open(url);
                PostgresMemoryStore writer = PostgresMemoryStore.open(url)) {
            writer.upsertAll(List.of(
                    Memory.builder("We deploy on Tuesdays.").id("deploy").createdAt(Instant.EPOCH).build(),
                    Memory.builder("Lunch is at noon.").id("lunch").createdAt(Instant.EPOCH).build()));
            assertThat(reader.searchLexical("default", "deploy", 5)).extracting(LexicalHit::memoryId)
                    .containsExactly("deploy");
            // Restored from a backup taken before those two writes: the log's numbers start again from 0, and the
            // next write takes number 1, below the 2 the reader's index was current to.
            restoreEmptyBackup();
            writer.upsertAll(List.of(Memory.builder("Deploy freezes start in December.").id("freeze")
                    .createdAt(Instant.EPOCH).build()));
            assertThat(reader.searchLexical("default", "deploy", 5)).extracting(LexicalHit::memoryId)
                    .containsExactly("freeze");
        }
    }

    @Test
    void aDatabaseThatWentBack_isReadAgainWhole() throws Exception {
        try (ContextCurator a = curator(); ContextCurator b = curator()) {
            a.remember(Memory.builder("We deploy on Tuesdays.").id("deploy").build());
            assertThat(ids(b.recall(RecallRequest.builder("when do we ship?").limit(5).build())))
                    .containsExactly("deploy");
            // As after a restore from an older backup, or a failover to a replica that lacked the last commits: the
            // memory is gone and the change numbers start again below what the curator applied.
            restoreEmptyBackup();
            assertThat(ids(b.recall(RecallRequest.builder("when do we ship?").limit(5).build()))).isEmpty();
            assertThat(b.stats().vectors()).isZero();
            a.remember(Memory.builder("Releases ship on Thursdays now.").id("ship").build());
            assertThat(ids(b.recall(RecallRequest.builder("when do we ship?").limit(5).build())))
                    .containsExactly("ship");
        }
    }

    @Test
    void concurrentWriters_getChangeNumbersInCommitOrder_withoutGaps_andAReaderMissesNone() throws Exception {
        int writers = 6;
        int each = 40;
        Set<String> written = ConcurrentHashMap.newKeySet();
        Set<String> seen = new TreeSet<>();
        try (PostgresMemoryStore reader = PostgresMemoryStore.open(url)) {
            ExecutorService pool = Executors.newFixedThreadPool(writers);
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                done.add(pool.submit(() -> {
                    try (PostgresMemoryStore store = PostgresMemoryStore.open(url)) {
                        for (int i = 0; i < each; i++) {
                            String id = "w" + writer + "-" + i;
                            // Two namespaces and batches of two: numbers are taken per transaction.
                            store.upsertAll(List.of(
                                    Memory.builder("text " + id).id(id).createdAt(Instant.EPOCH).build(),
                                    Memory.builder("text " + id).id(id).namespace("other").createdAt(Instant.EPOCH)
                                            .build()));
                            written.add(id);
                        }
                    }
                    return null;
                }));
            }
            // Follow the log while they write, as a curator does before each turn.
            long after = 0;
            long lastSequence = 0;
            while (done.stream().anyMatch(f -> !f.isDone()) || after < reader.lastChange()) {
                SharedStore.Changes changes = reader.changesSince(after, 50);
                assertThat(changes.complete()).isTrue();
                for (SharedStore.Change c : changes.changes()) {
                    assertThat(c.sequence()).isEqualTo(lastSequence + 1);
                    lastSequence = c.sequence();
                    if (c.namespace().equals("default")) {
                        seen.add(c.memoryId());
                    }
                }
                after = changes.upTo();
            }
            for (Future<?> f : done) {
                f.get();
            }
            pool.shutdown();
            assertThat(lastSequence).isEqualTo(2L * writers * each).isEqualTo(reader.lastChange());
            assertThat(seen).isEqualTo(new TreeSet<>(written)).hasSize(writers * each);
            assertThat(reader.count("default")).isEqualTo(writers * each);
            assertThat(reader.count("other")).isEqualTo(writers * each);
        }
    }
}
