package dev.memfas;

import dev.memfas.internal.Checks;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Chat messages to remember as memories ({@link Memories#remember(Conversation, boolean)}): each message becomes a
 * memory of kind {@code conversation_turn} with the conversation's source and the message's author and time, and the
 * curator's {@link dev.memfas.policy.FactExtractor} takes short facts from them, each a memory linked to the turns it
 * came from.
 *
 * @param namespace the namespace to remember into
 * @param source where the conversation happened (a session id, a channel): each memory's {@link Memory#source()};
 *     not blank
 * @param messages the messages, oldest first; at least one
 */
public record Conversation(String namespace, String source, List<Message> messages) {
    /** The kind of a memory that holds one message. */
    public static final String TURN_KIND = "conversation_turn";
    /** The metadata key of a fact's links: the ids of the turns it came from, comma-separated. */
    public static final String FROM_TURNS_KEY = "from_turns";

    /** Checks the components and copies the list. */
    public Conversation {
        Checks.identifier(Objects.requireNonNull(namespace, "namespace"), "namespace", 128);
        Checks.identifier(Objects.requireNonNull(source, "source"), "conversation source", 1024);
        messages = List.copyOf(Objects.requireNonNull(messages, "messages"));
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("a conversation needs at least one message");
        }
    }

    /** A conversation in the default namespace. */
    public static Conversation of(String source, List<Message> messages) {
        return new Conversation(Memory.DEFAULT_NAMESPACE, source, messages);
    }

    /** This conversation in another namespace. */
    public Conversation inNamespace(String namespace) {
        return new Conversation(namespace, source, messages);
    }

    /**
     * One chat message.
     *
     * @param author who wrote it ({@code user}, {@code assistant}, a person's name); not blank
     * @param text what it says; not blank
     * @param at when it was written; {@code null} for now, on the curator's clock
     */
    public record Message(String author, String text, Instant at) {
        /** Checks the author and the text are present and not blank. */
        public Message {
            Checks.identifier(Objects.requireNonNull(author, "author"), "message author", 256);
            Checks.nonBlank(Objects.requireNonNull(text, "text"), "message text");
        }

        /** A message written now. */
        public static Message of(String author, String text) {
            return new Message(author, text, null);
        }
    }

    /**
     * What a conversation gave, or would give in a dry run.
     *
     * @param turns the memory of each message, in order, as stored (or as it would be)
     * @param facts the facts taken from them; none yet when {@code factsPending}
     * @param dryRun whether nothing was stored
     * @param factsPending whether the facts are still being taken: the curator's extractor runs in the background
     *     ({@code Memfas.Builder.factExtractor(extractor, timeout)}), and writes them when it answers
     */
    public record Remembered(List<Memory> turns, List<Fact> facts, boolean dryRun, boolean factsPending) {
        /** Copies the lists. */
        public Remembered {
            turns = List.copyOf(turns);
            facts = List.copyOf(facts);
        }
    }

    /**
     * One fact taken from a conversation.
     *
     * @param memory the fact's memory, as stored (or as it would be): its text, its kind ({@code preference},
     *     {@code decision}, {@code event}, {@code fact}), the conversation's source, and the ids of the turns it came
     *     from under {@link #FROM_TURNS_KEY}
     * @param fromTurns the ids of the turns it came from
     * @param duplicateOf a stored memory that already says it (the fact is then not stored again), or {@code null}
     * @param updates a stored memory it supersedes (or would, in a dry run) under the curator's supersession policy,
     *     or {@code null}
     */
    public record Fact(Memory memory, List<String> fromTurns, String duplicateOf, String updates) {
        /** Checks the memory is present and copies the list. */
        public Fact {
            Objects.requireNonNull(memory, "memory");
            fromTurns = List.copyOf(fromTurns);
        }
    }
}
