package dev.memfas.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.Embedder;
import dev.memfas.Memory;
import dev.memfas.RecallHit;
import dev.memfas.SharedStore;
import dev.memfas.Trigger;
import dev.memfas.core.Memfas;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two curators, each with its own store on one SQLite file, as two processes would be: each sees the other's writes. */
final class SharedStoreTest {
    @TempDir
    Path dir;

    /** Texts about releases point one way, anything else the other: "semantic" matches that share no word. */
    private static final class TopicEmbedder implements Embedder {
        @Override
        public List<float[]> embedAll(List<String> texts) {
            List<float[]> out = new ArrayList<>();
            for (String t : texts) {
                String s = t.toLowerCase(Locale.ROOT);
                boolean release = s.contains("deploy") || s.contains("release") || s.contains("ship");
                out.add(release ? new float[] {1, 0, 0} : new float[] {0, 1, 0});
            }
            return out;
        }

        @Override
        public int dimension() {
            return 3;
        }

        @Override
        public String modelId() {
            return "topics";
        }
    }

    /** One vector candidate per turn: what else joins does so only by BM25, triggers or pinning. */
    private ContextCurator curator() {
        return Memfas.newBuilder().store(SqliteMemoryStore.open(dir.resolve("shared.db")))
                .embedder(new TopicEmbedder()).candidateLimit(1).build();
    }

    private static List<String> ids(List<RecallHit> hits) {
        return hits.stream().map(h -> h.memory().id()).toList();
    }

    @Test
    void writesOfOneCurator_reachTheOthersVectorIndex_pinsAndTriggers() {
        try (ContextCurator a = curator(); ContextCurator b = curator()) {
            a.remember(Memory.builder("Lunch is at noon.").id("lunch").build());
            // The first vectors of the store, written by the other: this curator's index loads them too, and its
            // one vector candidate is the same as the writer's.
            assertThat(ids(b.recall("when do we ship?", 5))).isEqualTo(ids(a.recall("when do we ship?", 5)))
                    .containsExactly("lunch");

            a.remember(Memory.builder("We deploy on Tuesdays.").id("deploy").build());
            assertThat(ids(b.recall("when do we ship?", 5))).contains("deploy");

            a.remember(Memory.builder("Always answer in British English.").id("pin").pinned(true).build());
            assertThat(b.getContext("when do we ship?", "s").memoryIds()).contains("pin", "deploy");

            a.addTrigger(Trigger.of("friday", "No deploys on Fridays."));
            assertThat(b.getContext("can we do it on friday?", "s").context()).contains("No deploys on Fridays.");

            a.forget("deploy");
            a.remember(Memory.builder("Always answer in British English.").id("pin").build());
            assertThat(ids(b.recall("when do we ship?", 5))).doesNotContain("deploy");
            // Unpinned there, so no longer pinned here: its priority is its importance again, not 1.
            assertThat(b.getContext("when do we ship?", "fresh").items()).allSatisfy(item -> {
                assertThat(item.memoryId()).isNotEqualTo("deploy");
                assertThat(item.factors().priority()).isEqualTo(0.5);
            });
        }
    }

    @Test
    void changesSince_readsInOrder_leavesOutItsOwn_andSaysWhenSomeWerePruned() throws Exception {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir.resolve("log.db"));
                SqliteMemoryStore other = SqliteMemoryStore.open(dir.resolve("log.db"))) {
            long start = store.lastChange();
            other.upsertAll(List.of(Memory.builder("one").id("1").createdAt(Instant.EPOCH).build(),
                    Memory.builder("two").id("2").namespace("team").createdAt(Instant.EPOCH).build()));
            other.putTrigger(Trigger.of("x", "hint"));
            other.delete("default", "1");
            store.upsertAll(List.of(Memory.builder("mine").id("3").createdAt(Instant.EPOCH).build()));

            SharedStore.Changes all = store.changesSince(start, 100);
            assertThat(all.complete()).isTrue();
            assertThat(all.exhausted()).isTrue();
            assertThat(all.changes()).extracting(c -> c.namespace() + ":" + c.kind() + ":" + c.memoryId())
                    .containsExactly("default:MEMORY:1", "team:MEMORY:2", "default:TRIGGERS:null",
                            "default:MEMORY:1");
            assertThat(all.upTo()).isEqualTo(store.lastChange()).isEqualTo(all.changes().get(3).sequence() + 1);
            assertThat(other.changesSince(start, 100).changes()).extracting(SharedStore.Change::memoryId)
                    .containsExactly("3");
            SharedStore.Changes two = store.changesSince(start, 2);
            assertThat(two.changes()).hasSize(2);
            assertThat(two.exhausted()).isFalse();

            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("log.db"));
                    Statement s = c.createStatement()) {
                s.execute("DELETE FROM changes WHERE seq <= " + (start + 2));
            }
            assertThat(store.changesSince(start, 100).complete()).isFalse();
            assertThat(store.changesSince(start + 2, 100).complete()).isTrue();
        }
    }
}
