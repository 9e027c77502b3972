package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.Memory;
import dev.memfas.RecallHit;
import dev.memfas.RecallRequest;
import dev.memfas.spi.Embedder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A model that reads a query otherwise than a memory (e5's "query: " and "passage: ") is given each as what it is: the
 * turn's query and history and a search's query through {@link Embedder#embedQueries}, memories through
 * {@link Embedder#embedAll}.
 */
class QueryEmbeddingTest {

    /** Embeds a query as the words of the text it names after "find ", a memory as its own words. */
    private static final class AsymmetricEmbedder implements Embedder {
        private final HashingEmbedder words = new HashingEmbedder(64);
        final List<String> texts = new ArrayList<>();
        final List<String> queries = new ArrayList<>();

        @Override
        public synchronized List<float[]> embedAll(List<String> given) {
            texts.addAll(given);
            return words.embedAll(given);
        }

        @Override
        public synchronized List<float[]> embedQueries(List<String> given) {
            queries.addAll(given);
            return words.embedAll(given.stream().map(q -> q.replace("find ", "")).toList());
        }

        @Override
        public int dimension() {
            return 64;
        }

        @Override
        public String modelId() {
            return "asymmetric";
        }
    }

    /** A curator that has remembered "k" (kafka retention) and "l" (the lunch menu), its floor off. */
    private static ContextCurator rememberingTwo(Embedder embedder) {
        ContextCurator curator = Memfas.newBuilder().embedder(embedder).relevanceFloor(-1).build();
        curator.rememberAll(List.of(Memory.builder("kafka retention is seven days").id("k").build(),
                Memory.builder("the lunch menu changes on mondays").id("l").build()));
        return curator;
    }

    @Test
    void aTurnAndASearch_embedTheirQueriesAsQueries_andMemoriesAsTexts() {
        AsymmetricEmbedder embedder = new AsymmetricEmbedder();
        try (ContextCurator curator = rememberingTwo(embedder)) {
            assertThat(embedder.texts).containsExactlyInAnyOrder("kafka retention is seven days",
                    "the lunch menu changes on mondays");

            var response = curator.getContext(ContextRequest.builder("find kafka retention").sessionId("s")
                    .recentHistory(List.of("we talked about topics")).build());
            List<RecallHit> hits = curator.recall(RecallRequest.builder("find lunch menu").limit(1).build());

            assertThat(embedder.queries).containsExactly("find kafka retention", "we talked about topics",
                    "find lunch menu");
            assertThat(embedder.texts).hasSize(2);
            assertThat(response.memoryIds()).startsWith("k");
            assertThat(hits).extracting(h -> h.memory().id()).containsExactly("l");
        }
    }

    @Test
    void aHistoryMessage_isEmbeddedOnItsOwn_andOnceASessionAskedItAsAQuery_notAgain() {
        AsymmetricEmbedder embedder = new AsymmetricEmbedder();
        try (ContextCurator curator = rememberingTwo(embedder)) {

            curator.getContext(ContextRequest.builder("find kafka retention").sessionId("s").build());
            var followUp = curator.getContext(ContextRequest.builder("Tell me more about that.").sessionId("s")
                    .build());
            curator.getContext(ContextRequest.builder("Why?").sessionId("s")
                    .recentHistory(List.of("find kafka retention", "find lunch menu")).build());
            curator.getContext(ContextRequest.builder("Why?").sessionId("other")
                    .recentHistory(List.of("find kafka retention")).build());

            // The follow-up's history is the query before it: only its own text goes to the model. The history of
            // two messages sends the one the session never asked; another session reuses nothing.
            assertThat(embedder.queries).containsExactly("find kafka retention", "Tell me more about that.",
                    "Why?", "find lunch menu", "Why?", "find kafka retention");
            assertThat(followUp.memoryIds()).startsWith("k");
        }
    }

    @Test
    void aChatsHistory_movingOnByAnExchangeATurn_hasEachMessageEmbeddedOnce() {
        AsymmetricEmbedder embedder = new AsymmetricEmbedder();
        try (ContextCurator curator = rememberingTwo(embedder)) {
            List<String> chat = new ArrayList<>();
            for (int turn = 1; turn <= 5; turn++) {
                String query = "find kafka retention " + turn;
                List<String> history = chat.subList(Math.max(0, chat.size() - 6), chat.size());
                var response = curator.getContext(ContextRequest.builder(query).sessionId("s")
                        .recentHistory(List.copyOf(history)).build());
                assertThat(response.memoryIds()).startsWith("k");
                chat.add(query);
                chat.add("a long reply " + turn);
            }
            // Each turn sends its query and the reply before it; the questions are the session's own queries.
            assertThat(embedder.queries).containsExactly("find kafka retention 1", "find kafka retention 2",
                    "a long reply 1", "find kafka retention 3", "a long reply 2", "find kafka retention 4",
                    "a long reply 3", "find kafka retention 5", "a long reply 4");

            // Another session has read none of it, and a turn without a history leaves what the last one read.
            curator.getContext(ContextRequest.builder("find lunch menu").sessionId("other")
                    .recentHistory(List.of("a long reply 4")).build());
            curator.getContext(ContextRequest.builder("find lunch menu").sessionId("s").build());
            curator.getContext(ContextRequest.builder("Why?").sessionId("s")
                    .recentHistory(List.of("a long reply 3", "a long reply 4", "a long reply 5")).build());
            assertThat(embedder.queries.subList(9, embedder.queries.size())).containsExactly("find lunch menu",
                    "a long reply 4", "find lunch menu", "Why?", "a long reply 5");
        }
    }

    @Test
    void aLongHistory_isReadByItsLatestSixMessages() {
        AsymmetricEmbedder embedder = new AsymmetricEmbedder();
        try (ContextCurator curator = rememberingTwo(embedder)) {
            List<String> history = List.of("m1", "m2", "m3", " ", "m4", "m5", "m6", "m7", "m8");

            curator.getContext(ContextRequest.builder("find kafka retention").recentHistory(history).build());

            assertThat(embedder.queries).containsExactly("find kafka retention", "m8", "m7", "m6", "m5", "m4", "m3");
        }
    }
}
