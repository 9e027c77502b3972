package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.Embeddings;
import dev.memfas.Memory;
import java.time.Instant;
import java.util.List;
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
                .isEqualTo(new AuthorNames.Reading("What is someone's identity?", true));
        assertThat(names.read(Memory.DEFAULT_NAMESPACE, "Did Melanie and Caroline\u2019s kids meet?"))
                .isEqualTo(new AuthorNames.Reading("Did someone and someone's kids meet?", true));
        assertThat(names.read(Memory.DEFAULT_NAMESPACE, "When did Melanie paint?").text())
                .isEqualTo("When did someone paint?");
    }

    @Test
    void onlyWholeWordsAsTheAuthorWritesThem_areNames() {
        AuthorNames names = over(said("1", "Jon", "I opened a dance studio"));

        for (String query : List.of("jon's studio", "Jones opened a studio", "Jon2 studio", "JON studio")) {
            assertThat(names.read(Memory.DEFAULT_NAMESPACE, query))
                    .as(query).isEqualTo(new AuthorNames.Reading(query, false));
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

        assertThat(names.read(Memory.DEFAULT_NAMESPACE, "What did the User ask?").namesAuthor()).isFalse();
    }

    @Test
    void namesAreThoseOfTheQuerysNamespace_andFollowTheWrites() {
        AuthorNames names = over(said("1", "Gina", "I lost my job"));
        Memory elsewhere = Memory.builder("I run a store").id("2").namespace("team").author("Gina").createdAt(NOW)
                .build();

        assertThat(names.read("team", "What does Gina sell?").namesAuthor()).isFalse();
        assertThat(names.read(Memory.DEFAULT_NAMESPACE, "Where does Maria volunteer?").namesAuthor()).isFalse();
        names.written(List.of(elsewhere, said("3", "Maria", "I volunteer at a shelter")));

        assertThat(names.read("team", "What does Gina sell?").namesAuthor()).isTrue();
        assertThat(names.read(Memory.DEFAULT_NAMESPACE, "Where does Maria volunteer?").text())
                .isEqualTo("Where does someone volunteer?");
    }

    @Test
    void aQueryWithoutNames_isTheSameString() {
        AuthorNames names = over(said("1", "Caroline", "hi"));
        String query = "what did we decide about the deploy?";

        assertThat(names.read(Memory.DEFAULT_NAMESPACE, query).text()).isSameAs(query);
    }
}
