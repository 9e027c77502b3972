package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Conversation;
import dev.memfas.Conversation.Message;
import dev.memfas.DroppedMemory;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.core.store.InMemoryMemoryStore;
import dev.memfas.policy.FactExtractor;
import dev.memfas.policy.SupersessionPolicy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Chat messages remembered as turns and facts: linked, deduplicated, superseding, and a dry run that writes none. */
final class ConversationTest {
    private static final Instant T0 = Instant.parse("2026-03-02T09:00:00Z");

    private static List<Message> chat() {
        return List.of(
                Message.of("user", "Hi! Can you help me plan the trip?"),
                Message.of("assistant", "Of course. Where are you flying from?"),
                Message.of("user", "From Lisbon. I prefer aisle seats on long flights. The conference is on March 14."),
                Message.of("assistant", "Noted. Priya works on the travel desk and can book it."));
    }

    private static List<Memory> all(ContextCurator curator) {
        List<Memory> out = new ArrayList<>();
        curator.memories().list("default", MemoryFilter.all(), 0, 1000).forEach(out::add);
        return out;
    }

    @Test
    void messagesBecomeTurns_andTheSentencesThatStateSomething_becomeLinkedFacts() {
        try (ContextCurator curator = Memfas.newBuilder().store(new InMemoryMemoryStore())
                .clock(new MutableClock(T0)).build()) {
            Conversation.Remembered r = curator.memories().remember(Conversation.of("chat-7", chat()), false);

            assertThat(r.dryRun()).isFalse();
            assertThat(r.turns()).hasSize(4).allMatch(m -> m.kind().equals(Conversation.TURN_KIND)
                    && m.source().equals("chat-7"));
            assertThat(r.turns()).extracting(Memory::author).containsExactly("user", "assistant", "user", "assistant");
            assertThat(r.turns().get(0).createdAt()).isBefore(r.turns().get(3).createdAt());
            assertThat(r.facts()).extracting(f -> f.memory().kind() + " " + f.memory().text()).containsExactly(
                    "preference user: I prefer aisle seats on long flights.",
                    "event The conference is on March 14.",
                    "fact Priya works on the travel desk and can book it.");
            Conversation.Fact aisle = r.facts().get(0);
            assertThat(aisle.fromTurns()).containsExactly(r.turns().get(2).id());
            assertThat(aisle.memory().metadata()).containsEntry(Conversation.FROM_TURNS_KEY, r.turns().get(2).id());
            assertThat(aisle.memory().author()).isEqualTo("user");
            assertThat(aisle.duplicateOf()).isNull();
            assertThat(all(curator)).hasSize(7);

            // The same conversation again: its facts are there already, so none is stored twice.
            Conversation.Remembered again = curator.memories().remember(Conversation.of("chat-8", chat()), false);
            assertThat(again.facts()).allMatch(f -> f.duplicateOf() != null);
            assertThat(again.facts().get(0).duplicateOf()).isEqualTo(aisle.memory().id());
            assertThat(all(curator)).hasSize(11);
            assertThat(curator.getContext("which seat does the user like on long flights?", "s").context())
                    .contains("I prefer aisle seats");
        }
    }

    @Test
    void aDryRun_showsWhatWouldBeStored_andStoresNothing() {
        try (ContextCurator curator = Memfas.newBuilder().store(new InMemoryMemoryStore())
                .clock(new MutableClock(T0)).build()) {
            curator.remember(Memory.builder("The conference is on March 14.").id("known").build());

            Conversation.Remembered r = curator.memories().remember(Conversation.of("chat-7", chat()), true);

            assertThat(r.dryRun()).isTrue();
            assertThat(r.turns()).hasSize(4);
            assertThat(r.facts()).hasSize(3);
            assertThat(r.facts().get(1).duplicateOf()).isEqualTo("known");
            assertThat(all(curator)).extracting(Memory::id).containsExactly("known");
        }
    }

    @Test
    void aFactWhoseTurnIsInTheContextAlready_isLeftOutAsItsDuplicate() {
        try (ContextCurator curator = Memfas.newBuilder().store(new InMemoryMemoryStore())
                .clock(new MutableClock(T0)).build()) {
            Conversation.Remembered r = curator.memories().remember(Conversation.of("chat-7", chat()), false);
            String turn = r.turns().get(2).id();
            String fact = r.facts().get(0).memory().id();
            assertThat(r.facts().get(0).fromTurns()).containsExactly(turn);

            // The turn says more of what is asked than its fact: it ranks first, and the fact adds nothing to it.
            ContextResponse c = curator.getContext(ContextRequest.builder(
                    "flying from Lisbon, aisle seats on long flights, the conference on March 14").explain(true)
                    .build());
            assertThat(c.memoryIds()).contains(turn).doesNotContain(fact);
            assertThat(c.dropped()).filteredOn(d -> d.memoryId().equals(fact)).singleElement()
                    .matches(d -> d.reason() == DroppedMemory.Reason.DUPLICATE && turn.equals(d.duplicateOf()));
        }
    }

    @Test
    void aFactThatUpdatesAStoredOne_supersedesIt_whenTheCuratorAppliesSupersession() {
        try (ContextCurator curator = Memfas.newBuilder().store(new InMemoryMemoryStore())
                .embedder(new HashingEmbedder(256)).supersession(SupersessionPolicy.apply(0.5))
                .clock(new MutableClock(T0)).build()) {
            curator.memories().remember(Conversation.of("chat-1", List.of(new Message("user",
                    "I prefer window seats on long flights.", T0.minusSeconds(3600)))), false);
            String window = all(curator).stream().filter(m -> m.kind().equals("preference")).findFirst()
                    .orElseThrow().id();

            List<Message> changed = List.of(new Message("user", "I prefer aisle seats on long flights.", T0));
            Conversation.Remembered dry = curator.memories().remember(Conversation.of("chat-2", changed), true);
            assertThat(dry.facts().get(0).updates()).isEqualTo(window);

            Conversation.Remembered r = curator.memories().remember(Conversation.of("chat-2", changed), false);
            assertThat(r.facts().get(0).updates()).isEqualTo(window);
            assertThat(curator.get("default", window).orElseThrow().memory().supersededBy())
                    .isEqualTo(r.facts().get(0).memory().id());
        }
    }

    @Test
    void withoutAnExtractor_onlyTheTurnsAreStored_andABadExtractorLosesNoTurn() {
        try (ContextCurator curator = Memfas.newBuilder().store(new InMemoryMemoryStore())
                .factExtractor(FactExtractor.none()).build()) {
            Conversation.Remembered r = curator.memories().remember(Conversation.of("c", chat()), false);
            assertThat(r.facts()).isEmpty();
            assertThat(all(curator)).hasSize(4);
        }
        try (ContextCurator curator = Memfas.newBuilder().store(new InMemoryMemoryStore())
                .factExtractor(messages -> {
                    throw new IllegalStateException("model down");
                }).build()) {
            assertThat(curator.memories().remember(Conversation.of("c", chat()), false).turns()).hasSize(4);
            assertThat(all(curator)).hasSize(4);
        }
        assertThatThrownBy(() -> Conversation.of("c", List.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a conversation needs at least one message");
        assertThatThrownBy(() -> Message.of("user", "  ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Message.of(" ", "Hello there.")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("message author");
        assertThatThrownBy(() -> Conversation.of("", chat())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("conversation source");
        // An extractor that names a message the conversation lacks: the messages are kept, its facts are not.
        try (ContextCurator curator = Memfas.newBuilder().store(new InMemoryMemoryStore())
                .factExtractor(messages -> List.of(new FactExtractor.Fact("A fact.", "fact", List.of(9)))).build()) {
            Conversation.Remembered r = curator.memories().remember(Conversation.of("c", chat()), false);
            assertThat(r.turns()).hasSize(4);
            assertThat(r.facts()).isEmpty();
        }
    }
}
