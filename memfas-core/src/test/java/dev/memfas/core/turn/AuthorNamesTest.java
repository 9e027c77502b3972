package dev.memfas.core.turn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.Memory;
import dev.memfas.RecallHit;
import dev.memfas.RecallRequest;
import dev.memfas.core.Memfas;
import dev.memfas.core.MutableClock;
import dev.memfas.core.PlacedEmbedder;
import dev.memfas.core.store.InMemoryMemoryStore;
import dev.memfas.spi.Embeddings;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class AuthorNamesTest {
    private static final Instant NOW = Instant.parse("2026-11-01T12:00:00Z");

    private static Memory said(String id, String author, String text) {
        return Memory.builder(text).id(id).author(author).createdAt(NOW).build();
    }

    private static AuthorNames over(Memory... memories) {
        InMemoryMemoryStore store = new InMemoryMemoryStore();
        store.upsertAll(List.of(memories), Embeddings.none());
        return new AuthorNames(store);
    }

    @Test
    void aNamedAuthor_isReadAsSomeone_possessiveIncluded() {
        AuthorNames names = over(said("1", "Caroline", "I went to a support group"), said("2", "Melanie", "Nice!"));

        assertThat(names.read(Memory.DEFAULT_NAMESPACE, "What is Caroline's identity?"))
                .isEqualTo(new AuthorNames.Reading("What is someone's identity?", Set.of("Caroline"), false));
        assertThat(names.read(Memory.DEFAULT_NAMESPACE, "Did Melanie and Caroline\u2019s kids meet?"))
                .isEqualTo(new AuthorNames.Reading("Did someone and someone's kids meet?",
                        Set.of("Melanie", "Caroline"), false));
        assertThat(names.read(Memory.DEFAULT_NAMESPACE, "When did Melanie paint?").text())
                .isEqualTo("When did someone paint?");
    }

    @Test
    void onlyWholeWordsAsTheAuthorWritesThem_areNames() {
        AuthorNames names = over(said("1", "Jon", "I opened a dance studio"));

        for (String query : List.of("jon's studio", "Jones opened a studio", "Jon2 studio", "JON studio")) {
            assertThat(names.read(Memory.DEFAULT_NAMESPACE, query))
                    .as(query).isEqualTo(new AuthorNames.Reading(query, Set.of(), false));
        }
        assertThat(names.read(Memory.DEFAULT_NAMESPACE, "(Jon)").text()).isEqualTo("(someone)");
    }

    @Test
    void rolesAndIdentifiers_areNotNames() {
        assertThat(AuthorNames.isName("Caroline")).isTrue();
        assertThat(AuthorNames.isName("Zoë")).isTrue();
        for (String author : List.of("user", "User", "Assistant", "SYSTEM", "AI", "agent-7", "O'Brien", "Mary Jane",
                "J", "bob", "X" + "x".repeat(40))) {
            assertThat(AuthorNames.isName(author)).as(author).isFalse();
        }
        AuthorNames names = over(said("1", "User", "my phone is old"), said("2", "assistant", "try a case"));

        assertThat(names.read(Memory.DEFAULT_NAMESPACE, "What did the User ask?").named()).isEmpty();
    }

    @Test
    void namesAreThoseOfTheQuerysNamespace_andFollowTheWrites() {
        AuthorNames names = over(said("1", "Gina", "I lost my job"));
        Memory elsewhere = Memory.builder("I run a store").id("2").namespace("team").author("Gina").createdAt(NOW)
                .build();

        assertThat(names.read("team", "What does Gina sell?").named()).isEmpty();
        assertThat(names.read(Memory.DEFAULT_NAMESPACE, "Where does Maria volunteer?").named()).isEmpty();
        names.written(List.of(elsewhere, said("3", "Maria", "I volunteer at a shelter")));

        assertThat(names.read("team", "What does Gina sell?").named()).containsExactly("Gina");
        assertThat(names.read(Memory.DEFAULT_NAMESPACE, "Where does Maria volunteer?").text())
                .isEqualTo("Where does someone volunteer?");
    }

    @Test
    void aNameStaysWhileAMemoryByItsAuthorDoes() {
        InMemoryMemoryStore store = new InMemoryMemoryStore();
        store.upsertAll(List.of(said("1", "Caroline", "I paint"), said("2", "Melanie", "Nice!"),
                said("3", "Melanie", "I run")), Embeddings.none());
        AuthorNames names = new AuthorNames(store);
        assertThat(names.names(Memory.DEFAULT_NAMESPACE)).containsExactlyInAnyOrder("Caroline", "Melanie");

        store.deleteAll(Memory.DEFAULT_NAMESPACE, List.of("1", "2"));
        names.removed(Memory.DEFAULT_NAMESPACE);

        assertThat(names.read(Memory.DEFAULT_NAMESPACE, "What does Caroline paint?").named()).isEmpty();
        assertThat(names.read(Memory.DEFAULT_NAMESPACE, "Does Melanie run?").named()).containsExactly("Melanie");
    }

    @Test
    void aCuratorForgettingAnAuthorsLastMemory_readsTheNameAsAWordAgain() {
        // Below the embedder's relevance floor (0.5): only a query that names an author gets past the gate.
        Map<String, Double> cosines = Map.of("I paint sunsets", 0.3, "I like tea", 0.3, "lunch at noon", 0.2);
        try (ContextCurator curator = Memfas.newBuilder().embedder(new PlacedEmbedder(cosines, Double.NaN))
                .clock(new MutableClock(NOW)).build()) {
            curator.rememberAll(List.of(said("c1", "Caroline", "I paint sunsets"),
                    said("c2", "Caroline", "I like tea"), said("m1", "Melanie", "lunch at noon")));
            assertThat(curator.getContext("What does Caroline paint?", "s1").memoryIds()).contains("c1");

            curator.forget(Memory.DEFAULT_NAMESPACE, "c1");
            assertThat(curator.getContext("What does Caroline paint?", "s2").memoryIds()).contains("c2")
                    .doesNotContain("c1");

            curator.forget(Memory.DEFAULT_NAMESPACE, "c2");
            assertThat(curator.getContext("What does Caroline paint?", "s3").items()).isEmpty();
            assertThat(curator.getContext("What does Melanie paint?", "s4").memoryIds()).contains("m1");
        }
    }

    @Test
    void aQueryWithoutNames_isTheSameString() {
        AuthorNames names = over(said("1", "Caroline", "hi"));
        String query = "what did we decide about the deploy?";

        assertThat(names.read(Memory.DEFAULT_NAMESPACE, query).text()).isSameAs(query);
    }

    /** Caroline's "I paint sunsets" at cosine 0.60 with every query, Melanie's "I paint sunrises" at 0.63. */
    private static ContextCurator painters() {
        Map<String, Double> cosines = Map.of("I paint sunsets", 0.60, "I paint sunrises", 0.63, "lunch at noon", 0.2);
        ContextCurator curator = Memfas.newBuilder().embedder(new PlacedEmbedder(cosines, 0.7))
                .clock(new MutableClock(NOW)).build();
        curator.rememberAll(List.of(said("caroline", "Caroline", "I paint sunsets"),
                said("melanie", "Melanie", "I paint sunrises"), said("lunch", "Melanie", "lunch at noon")));
        return curator;
    }

    @Test
    void aMemoryByTheNamedAuthor_isRaised_andRanksAboveACloserOne() {
        try (ContextCurator curator = painters()) {
            List<RecallHit> named = curator.recall(RecallRequest.builder("What does Caroline paint?").limit(3).build());
            List<RecallHit> nobody = curator.recall(RecallRequest.builder("What does one paint?").limit(3).build());

            assertThat(named).extracting(h -> h.memory().id()).startsWith("caroline", "melanie");
            assertThat(nobody).extracting(h -> h.memory().id()).startsWith("melanie", "caroline");
            // min-max scaled between the lowest (0.2) and the highest cosine: 0.65 raised, 0.63 under it
            assertThat(named.get(1).factors().semantic()).isCloseTo((0.63 - 0.2) / (0.65 - 0.2),
                    org.assertj.core.data.Offset.offset(1e-3));
            assertThat(CandidateScorer.NAMED_AUTHOR_RAISE).isEqualTo(0.05);
        }
    }

    @Test
    void aFollowUp_readsAsNamingTheAuthorsOfTheLatestMessageThatNamesAny() {
        AuthorNames names = over(said("1", "Caroline", "I paint"), said("2", "Melanie", "I swim"));
        String ns = Memory.DEFAULT_NAMESPACE;
        List<String> history = List.of("What does Caroline paint?", "Did Melanie and Caroline swim?", "Nice.");

        assertThat(names.readFollowingHistory(ns, "Tell me more about that.", history, true))
                .isEqualTo(new AuthorNames.Reading("Tell me more about that.", Set.of("Melanie", "Caroline"), true));
        // a pronoun stands for one person: the one named last
        assertThat(names.readFollowingHistory(ns, "When did she go?", history, true).named())
                .containsExactly("Caroline");
        // a query that is not a follow-up and has no pronoun is about no one the history names
        assertThat(names.readFollowingHistory(ns, "What about the weather on the coast?", history, false).named())
                .isEmpty();
        // a query that names someone is about them, whatever came before
        assertThat(names.readFollowingHistory(ns, "And Melanie?", history, true).named()).containsExactly("Melanie");
        assertThat(names.readFollowingHistory(ns, "Why?", List.of("Nice."), true).named()).isEmpty();
    }

    @Test
    void aFollowUp_raisesTheMemoriesOfTheAuthorItsHistoryNames() {
        try (ContextCurator curator = painters()) {
            List<String> afterCaroline = curator.getContext(ContextRequest.builder("Tell me more about that.")
                    .sessionId("a").recentHistory(List.of("What does Caroline paint?")).build()).memoryIds();
            List<String> afterNobody = curator.getContext(ContextRequest.builder("Tell me more about that.")
                    .sessionId("b").recentHistory(List.of("What does one paint?")).build()).memoryIds();

            assertThat(afterCaroline).startsWith("caroline", "melanie");
            assertThat(afterNobody).startsWith("melanie", "caroline");
        }
    }
}
