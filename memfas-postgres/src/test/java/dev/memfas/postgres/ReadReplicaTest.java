package dev.memfas.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.MemfasException;
import dev.memfas.Memory;
import dev.memfas.RecallRequest;
import dev.memfas.core.Memfas;
import dev.memfas.testkit.SharedStoreContract;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A curator whose store reads from a hot standby of the database: its turns are served by the replica, its writes
 * (the access statistics of each turn) go to the primary, and it sees another process's writes once the replica has
 * them.
 */
final class ReadReplicaTest {
    @Test
    void turnsReadTheReplica_writesGoToThePrimary_andOthersWritesArriveWithReplication() throws Exception {
        try (EmbeddedPostgres primary = EmbeddedPostgres.startNew()) {
            // The tables exist before the copy, so the replica has them from the start.
            PostgresMemoryStore.open(primary.jdbcUrl()).close();
            try (EmbeddedPostgres replica = primary.startReplica();
                    PostgresMemoryStore writer = PostgresMemoryStore.open(primary.jdbcUrl());
                    ContextCurator reader = Memfas.newBuilder().store(PostgresMemoryStore.builder(primary.jdbcUrl())
                            .readReplica(replica.jdbcUrl()).build())
                            .embedder(new SharedStoreContract.TopicEmbedder()).build()) {
                try (Connection c = DriverManager.getConnection(replica.jdbcUrl()); Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("SELECT pg_is_in_recovery()")) {
                    rs.next();
                    assertThat(rs.getBoolean(1)).as("the replica is a standby").isTrue();
                }
                writer.upsertAll(List.of(Memory.builder("We deploy on Tuesdays.").id("deploy")
                        .createdAt(Instant.parse("2026-11-24T09:00:00Z")).build()),
                        dev.memfas.spi.Embeddings.of(new dev.memfas.spi.VectorSpace("topics", 3),
                                List.of(new float[] {1, 0, 0})));

                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                List<String> ids = List.of();
                while (ids.isEmpty() && System.nanoTime() < deadline) {
                    ids = reader.getContext("when do we ship?", "s").memoryIds();
                    if (ids.isEmpty()) {
                        Thread.sleep(20);
                    }
                }
                assertThat(ids).as("found by meaning once replicated").containsExactly("deploy");
                // The turn's access statistics were written to the primary.
                assertThat(writer.get("default", "deploy").orElseThrow().accessCount()).isEqualTo(1);

                // Without the replica, reads fail and say where; the primary still takes the writes.
                replica.stop();
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> reader
                                .recall(RecallRequest.builder("when do we ship?").limit(5).build()))
                        .isInstanceOf(MemfasException.class).hasMessageContaining("(read replica)");
                writer.upsertAll(List.of(Memory.builder("Lunch is at noon.").id("lunch")
                        .createdAt(Instant.parse("2026-11-24T09:00:00Z")).build()));
                assertThat(writer.count("default")).isEqualTo(2);
            }
        }
    }
}
