package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.Memory;
import dev.memfas.core.turn.FollowUps;
import dev.memfas.core.turn.SessionState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A query that names almost nothing is read with its conversation; one that names its subject is read alone. */
final class FollowUpReadingTest {
    private static final Instant NOW = Instant.parse("2026-11-01T12:00:00Z");

    private ContextCurator curator;

    @BeforeEach
    void remember() {
        curator = Memfas.newBuilder().embedder(new FlooredEmbedder(new HashingEmbedder(256), 0.3))
                .clock(new MutableClock(NOW)).build();
        curator.rememberAll(List.of(memory("k1", "kafka retention is seven days"),
                memory("k2", "kafka partitions are twelve"), memory("l", "lunch is served at noon")));
    }

    @AfterEach
    void close() {
        curator.close();
    }

    private static Memory memory(String id, String text) {
        return Memory.builder(text).id(id).createdAt(NOW.minus(Duration.ofDays(1))).build();
    }

    private List<String> ids(String query, String... history) {
        return curator.getContext(ContextRequest.builder(query).sessionId("s").recentHistory(List.of(history))
                .build()).memoryIds();
    }

    @Test
    void aFollowUpThatNamesNothing_findsWhatItsConversationIsAbout() {
        assertThat(ids("Tell me more about that.")).isEmpty();

        assertThat(ids("Tell me more about that.", "What is our kafka retention?")).startsWith("k1");
        assertThat(ids("Why?", "What is our kafka retention?")).startsWith("k1");
    }

    @Test
    void aQueryThatNamesItsSubject_isReadAloneWhateverCameBefore() {
        // the history still moves the session's topic, so compare the meaning the query was read by
        assertThat(semantics("when is lunch served", "What is our kafka retention?"))
                .isEqualTo(semantics("when is lunch served"));
        assertThat(semantics("Tell me more about that.", "What is our kafka retention?"))
                .isNotEqualTo(semantics("Tell me more about that."));
    }

    /** Each included memory's semantic factor, by id, in a fresh session. */
    private java.util.Map<String, Double> semantics(String query, String... history) {
        java.util.Map<String, Double> out = new java.util.TreeMap<>();
        curator.getContext(ContextRequest.builder(query).sessionId("fresh-" + System.nanoTime())
                .recentHistory(List.of(history)).build()).items()
                .forEach(i -> out.put(i.memoryId(), i.factors().semantic()));
        return out;
    }

    @Test
    void aFollowUp_isOneWordAtMost_stopWordsAside() {
        assertThat(FollowUps.namesAlmostNothing("Tell me more about that.")).isTrue();
        assertThat(FollowUps.namesAlmostNothing("And her sister?")).isTrue();
        assertThat(FollowUps.namesAlmostNothing("Why?")).isTrue();
        assertThat(FollowUps.namesAlmostNothing("")).isTrue();
        assertThat(FollowUps.namesAlmostNothing("What about the kafka retention?")).isFalse();
        assertThat(FollowUps.namesAlmostNothing("What is the capital of France?")).isFalse();
    }

    @Test
    void aFollowUp_isSearchedByItsHistorysWordsToo_theLatestFirst() {
        List<String> history = List.of("lunch at noon", "kafka retention");

        assertThat(FollowUps.isFollowUp("Why?", history)).isTrue();
        assertThat(FollowUps.searchText("Why?", history)).isEqualTo("Why?\nkafka retention\nlunch at noon");
        assertThat(FollowUps.isFollowUp("Why?", List.of())).isFalse();
        assertThat(FollowUps.isFollowUp("when is lunch served", List.of("kafka"))).isFalse();
    }

    @Test
    void aFollowUpWithoutAHistory_isReadWithWhatItsSessionAskedBefore() {
        curator.getContext("What is our kafka retention?", "asked");
        curator.getContext("when is lunch served", "lunch");

        assertThat(curator.getContext("Why?", "asked").memoryIds()).startsWith("k1");
        assertThat(curator.getContext("Why?", "lunch").memoryIds()).startsWith("l");
        assertThat(curator.getContext("Why?", "new").memoryIds()).isEmpty();
        // A question that names its subject is read alone, whatever the session asked before.
        assertThat(semantics("when is lunch served")).isEqualTo(semanticsAfter("What is our kafka retention?",
                "when is lunch served"));
    }

    @Test
    void withoutAHistory_onlyAQueryThatNamesNothingOrPointsBack_leansOnTheSession() {
        assertThat(FollowUps.leansOnWhatCameBefore("Why?")).isTrue();
        assertThat(FollowUps.leansOnWhatCameBefore("Tell me more about that.")).isTrue();
        assertThat(FollowUps.leansOnWhatCameBefore("What about the other one?")).isTrue();
        assertThat(FollowUps.leansOnWhatCameBefore("When did she go there?")).isTrue();
        assertThat(FollowUps.leansOnWhatCameBefore("Which pet do I have?")).isFalse();
        assertThat(FollowUps.leansOnWhatCameBefore("What is our kafka retention?")).isFalse();

        assertThat(semantics("lunch")).isEqualTo(semanticsAfter("What is our kafka retention?", "lunch"));
    }

    @Test
    void aSession_keepsItsLatestThreeQueries_oldestFirst() {
        SessionState session = new SessionState("s", "default", NOW);
        for (String q : List.of("one", "two", "three", "four")) {
            session.askedBefore(q);
        }
        assertThat(session.askedBefore("five")).containsExactly("two", "three", "four");
    }

    /** Each included memory's semantic factor, by id, for a query asked after another in a fresh session. */
    private java.util.Map<String, Double> semanticsAfter(String before, String query) {
        String session = "after-" + System.nanoTime();
        curator.getContext(before, session);
        java.util.Map<String, Double> out = new java.util.TreeMap<>();
        curator.getContext(query, session).items().forEach(i -> out.put(i.memoryId(), i.factors().semantic()));
        return out;
    }

    @Test
    void aFollowUp_findsByWordsWhatItsHistoryNames_withoutAnEmbedder() {
        try (ContextCurator words = Memfas.newBuilder().clock(new MutableClock(NOW)).build()) {
            words.rememberAll(List.of(memory("k1", "kafka retention is seven days"),
                    memory("l", "lunch is served at noon")));

            assertThat(words.getContext(ContextRequest.builder("And then?").sessionId("w")
                    .recentHistory(List.of("What is our kafka retention?")).build()).memoryIds()).containsExactly("k1");
            assertThat(words.getContext("And then?", "w2").memoryIds()).isEmpty();
        }
    }

    @Test
    void aPronoun_isSearchedByTheNameItStandsFor_asTheQueryThatNamedThemWouldBe() {
        try (ContextCurator words = Memfas.newBuilder().clock(new MutableClock(NOW)).build()) {
            words.rememberAll(List.of(said("c", "Caroline", "Caroline: I went to the support group"),
                    said("m", "Melanie", "Melanie: the support group, the support group met at the library"),
                    said("x1", "Melanie", "Melanie: the kids painted"),
                    said("x2", "Melanie", "Melanie: we went camping"),
                    said("x3", "Caroline", "Caroline: adoption papers are in")));
            String pronoun = "When did she go to the support group?";

            assertThat(words.getContext(pronoun, "alone").memoryIds()).startsWith("m");
            assertThat(words.getContext(ContextRequest.builder(pronoun).sessionId("told")
                    .recentHistory(List.of("Let's talk about Caroline.")).build()).memoryIds()).startsWith("c");
            words.getContext("Let's talk about Caroline.", "session");
            assertThat(words.getContext(pronoun, "session").memoryIds()).startsWith("c");
        }
    }

    @Test
    void aFollowUpsHistory_isEmbeddedAsTheQueryIs_itsAuthorsNamesReadAsSomeone() {
        HashingEmbedder embedder = new HashingEmbedder(64);
        try (ContextCurator named = Memfas.newBuilder().embedder(embedder).clock(new MutableClock(NOW)).build()) {
            named.rememberAll(List.of(said("c", "Caroline", "Caroline: I went to the support group")));
            embedder.embedded.clear();

            named.getContext(ContextRequest.builder("Tell me more about that.").sessionId("f")
                    .recentHistory(List.of("When did Caroline go to the support group?")).build());
            named.getContext(ContextRequest.builder("When is the next meeting?").sessionId("q")
                    .recentHistory(List.of("When did Caroline go to the support group?")).build());

            assertThat(embedder.embedded).containsExactly("Tell me more about that.",
                    "When did someone go to the support group?", "When is the next meeting?",
                    "When did Caroline go to the support group?");
        }
    }

    private static Memory said(String id, String author, String text) {
        return Memory.builder(text).id(id).author(author).createdAt(NOW.minus(Duration.ofDays(1))).build();
    }
}
