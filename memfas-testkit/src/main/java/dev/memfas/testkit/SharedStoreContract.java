package dev.memfas.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.ContextResponse;
import dev.memfas.MemfasException;
import dev.memfas.Memory;
import dev.memfas.RecallHit;
import dev.memfas.RecallRequest;
import dev.memfas.Trigger;
import dev.memfas.spi.Embedder;
import dev.memfas.spi.Embeddings;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.TriggerStore;
import dev.memfas.spi.SharedStore;
import dev.memfas.spi.StoredMemory;
import dev.memfas.spi.VectorSpace;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * The behaviour of a durable {@link SharedStore}, through curators, as processes that share it see it: each curator
 * sees the others' writes (vectors, pins, triggers), the change log numbers them in order and leaves out a store
 * object's own, and memories, vectors, access and triggers outlive the curator. A store's test extends this class and
 * opens store objects over one data set per test (a file, a database schema); the curators come from the test too,
 * since the testkit knows no curator implementation.
 */
public abstract class SharedStoreContract {
    private static final Instant T0 = MemoryHistoryContract.T0;

    protected SharedStoreContract() {}

    /** A new store object over this test's data: the same data for every call within one test. */
    protected abstract MemoryStore openStore();

    /** A curator over the store with the embedder, considering at most {@code candidateLimit} vector candidates. */
    protected abstract ContextCurator curator(MemoryStore store, Embedder embedder, int candidateLimit);

    /** Re-embeds every memory of the store with the embedder, the store's own operation; returns how many. */
    protected abstract int reembed(MemoryStore store, Embedder embedder);

    /** Deletes the store's record of the changes numbered up to {@code upTo}, as its window of kept changes would. */
    protected abstract void pruneChanges(long upTo);

    /**
     * Texts about releases (deploy, release, ship) point one way, anything else the other: "semantic" matches that
     * share no word, for tests of what curators find by meaning.
     */
    public static final class TopicEmbedder implements Embedder {
        /** Creates one. */
        public TopicEmbedder() {}

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

    /**
     * Places each of the given texts at cosine 0.3 with every other text (the queries), each on a dimension of its
     * own, under a relevance floor of 0.5: a query meets none of them by meaning.
     */
    private record FarEmbedder(List<String> placed) implements Embedder {
        @Override
        public List<float[]> embedAll(List<String> texts) {
            List<float[]> out = new ArrayList<>();
            for (String t : texts) {
                float[] v = new float[dimension()];
                int i = placed.indexOf(t);
                v[0] = i < 0 ? 1f : 0.3f;
                if (i >= 0) {
                    v[1 + i] = (float) Math.sqrt(1 - 0.3 * 0.3);
                }
                out.add(v);
            }
            return out;
        }

        @Override
        public int dimension() {
            return 1 + placed.size();
        }

        @Override
        public String modelId() {
            return "far";
        }

        @Override
        public OptionalDouble relevanceFloor() {
            return OptionalDouble.of(0.5);
        }
    }

    private static List<String> ids(List<RecallHit> hits) {
        return hits.stream().map(h -> h.memory().id()).toList();
    }

    private static Memory memory(String namespace, String id, String text) {
        return Memory.builder(text).id(id).namespace(namespace).createdAt(T0).build();
    }

    @Test
    void writesOfOneCurator_reachTheOthersVectorIndex_pinsAndTriggers() {
        // One vector candidate per turn: what else joins does so only by BM25, triggers or pinning.
        try (ContextCurator a = curator(openStore(), new TopicEmbedder(), 1);
                ContextCurator b = curator(openStore(), new TopicEmbedder(), 1)) {
            a.remember(Memory.builder("Lunch is at noon.").id("lunch").build());
            // The first vectors of the store, written by the other: this curator's index loads them too, and its
            // one vector candidate is the same as the writer's.
            assertThat(ids(b.recall(RecallRequest.builder("when do we ship?").limit(5).build())))
                    .isEqualTo(ids(a.recall(RecallRequest.builder("when do we ship?").limit(5).build())))
                    .containsExactly("lunch");

            a.remember(Memory.builder("We deploy on Tuesdays.").id("deploy").build());
            assertThat(ids(b.recall(RecallRequest.builder("when do we ship?").limit(5).build()))).contains("deploy");

            a.remember(Memory.builder("Always answer in British English.").id("pin").pinned(true).build());
            assertThat(b.getContext("when do we ship?", "s").memoryIds()).contains("pin", "deploy");

            a.triggers().add(Trigger.of("friday", "No deploys on Fridays."));
            assertThat(b.getContext("can we do it on friday?", "s").context()).contains("No deploys on Fridays.");

            a.forget(Memory.DEFAULT_NAMESPACE, "deploy");
            a.remember(Memory.builder("Always answer in British English.").id("pin").build());
            assertThat(ids(b.recall(RecallRequest.builder("when do we ship?").limit(5).build())))
                    .doesNotContain("deploy");
            // Unpinned there, so no longer pinned here: its priority is its importance again, not 1.
            assertThat(b.getContext("when do we ship?", "fresh").items()).allSatisfy(item -> {
                assertThat(item.memoryId()).isNotEqualTo("deploy");
                assertThat(item.factors().priority()).isEqualTo(0.5);
            });
        }
    }

    @Test
    void anAuthorsLastMemory_forgottenByOneCurator_isNoLongerANameToTheOther() {
        FarEmbedder far = new FarEmbedder(List.of("We ship on Tuesdays.", "We deploy daily."));
        try (ContextCurator a = curator(openStore(), far, 10); ContextCurator b = curator(openStore(), far, 10)) {
            a.rememberAll(List.of(Memory.builder("We ship on Tuesdays.").id("c").author("Caroline").build(),
                    Memory.builder("We deploy daily.").id("m").author("Melanie").build()));
            // Under the floor: only a query that names an author is let through.
            assertThat(b.getContext("What does Caroline like?", "s1").memoryIds()).contains("c", "m");

            a.forget(Memory.DEFAULT_NAMESPACE, "c");

            assertThat(b.getContext("What does Caroline like?", "s2").items()).isEmpty();
            assertThat(b.getContext("What does Melanie like?", "s3").memoryIds()).containsExactly("m");
        }
    }

    @Test
    void changesSince_readsInOrder_leavesOutItsOwn_andSaysWhenSomeWerePruned() {
        try (MemoryStore store = openStore(); MemoryStore other = openStore()) {
            SharedStore mine = (SharedStore) store;
            SharedStore theirs = (SharedStore) other;
            long start = mine.lastChange();
            other.upsertAll(List.of(Memory.builder("one").id("1").createdAt(Instant.EPOCH).build(),
                    Memory.builder("two").id("2").namespace("team").createdAt(Instant.EPOCH).build()));
            ((TriggerStore) other).putTrigger(Trigger.of("x", "hint"));
            other.delete("default", "1");
            store.upsertAll(List.of(Memory.builder("mine").id("3").createdAt(Instant.EPOCH).build()));

            SharedStore.Changes all = mine.changesSince(start, 100);
            assertThat(all.complete()).isTrue();
            assertThat(all.exhausted()).isTrue();
            assertThat(all.changes()).extracting(c -> c.namespace() + ":" + c.kind() + ":" + c.memoryId())
                    .containsExactly("default:MEMORY:1", "team:MEMORY:2", "default:TRIGGERS:null",
                            "default:MEMORY:1");
            assertThat(all.upTo()).isEqualTo(mine.lastChange()).isEqualTo(all.changes().get(3).sequence() + 1);
            assertThat(theirs.changesSince(start, 100).changes()).extracting(SharedStore.Change::memoryId)
                    .containsExactly("3");
            SharedStore.Changes two = mine.changesSince(start, 2);
            assertThat(two.changes()).hasSize(2);
            assertThat(two.exhausted()).isFalse();

            pruneChanges(start + 2);
            assertThat(mine.changesSince(start, 100).complete()).isFalse();
            assertThat(mine.changesSince(start + 2, 100).complete()).isTrue();
        }
    }

    @Test
    void curator_memoriesVectorsAccessAndTriggers_surviveARestart() {
        WordEmbedder embedder = new WordEmbedder("words-64", 64);
        try (ContextCurator curator = curator(openStore(), embedder, 100)) {
            curator.rememberAll(List.of(memory("default", "a", "kafka retention is seven days"),
                    memory("default", "b", "grafana dashboards for kafka lag"),
                    memory("default", "c", "lunch is at noon")));
            curator.triggers().add(Trigger.of("oncall", "Page the SRE first.", "b"));
            curator.getContext("kafka retention", "s");
        }

        MemoryStore store = openStore();
        try (ContextCurator curator = curator(store, embedder, 100)) {
            assertThat(store.vectorSpace()).contains(new VectorSpace("words-64", 64));
            assertThat(store.get("default", "a").map(StoredMemory::accessCount)).contains(1L);

            ContextResponse r = curator.getContext("oncall: kafka retention?", "s2");

            assertThat(r.triggersMatched()).containsExactly("oncall");
            assertThat(r.memoryIds()).startsWith("b").contains("a");
            assertThat(curator.stats().vectors()).isEqualTo(3);
        }
    }

    @Test
    void curator_withAnotherEmbedder_isRefused_untilTheStoreIsReembedded() {
        try (ContextCurator curator = curator(openStore(), new WordEmbedder("words-64", 64), 100)) {
            curator.rememberAll(List.of(memory("default", "a", "kafka retention"), memory("x", "b", "grafana")));
        }
        WordEmbedder other = new WordEmbedder("words-32", 32);

        try (MemoryStore store = openStore()) {
            assertThatThrownBy(() -> curator(store, other, 100))
                    .isInstanceOf(MemfasException.class)
                    .hasMessageContaining("the store holds vectors of words-64/64 but the embedder is words-32/32");
            assertThatThrownBy(() -> store.upsertAll(List.of(memory("default", "c", "x")),
                            Embeddings.of(new VectorSpace("words-32", 32), other.embedAll(List.of("x")))))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("vector space differs from the store's: words-32/32 != words-64/64");
            assertThat(store.count("default")).isEqualTo(1);

            assertThat(reembed(store, other)).isEqualTo(2);
            assertThat(store.vectorSpace()).contains(new VectorSpace("words-32", 32));
        }
        try (ContextCurator curator = curator(openStore(), other, 100)) {
            assertThat(curator.getContext("kafka", "s").memoryIds()).containsExactly("a");
        }
    }
}
