package dev.memfas.policy;

import dev.memfas.Conversation;
import dev.memfas.internal.Checks;
import java.util.List;
import java.util.Objects;

/**
 * Takes short facts from chat messages ({@link dev.memfas.Memories#remember(Conversation, boolean)}), each stored as a
 * memory beside the messages and linked to the ones it came from: a key that says in a sentence what a long exchange
 * established. memfas's own reads sentences that state a preference, a decision, a date or a fact about a named person
 * or thing, without a model; a model-backed one (memfas-llm's) plugs in with {@code Memfas.newBuilder()
 * .factExtractor(extractor, timeout)}, which runs it in the background, and {@link #none()} takes nothing. Called
 * outside the curator's locks, once per conversation; it should not call back into the curator.
 */
@FunctionalInterface
public interface FactExtractor {
    /**
     * The facts the messages state.
     *
     * @param messages the conversation's messages, oldest first
     * @return the facts, each naming the positions (in {@code messages}) of the messages it came from
     */
    List<Fact> extract(List<Conversation.Message> messages);

    /**
     * The facts the messages state, with what taking them cost: the tokens a model read and wrote, and their price.
     * The curator calls this one and records the cost in its telemetry; an extractor that calls a model overrides it.
     * Without a model, {@link #extract} with nothing spent.
     *
     * @param messages the conversation's messages, oldest first
     */
    default Extraction extractWithCost(List<Conversation.Message> messages) {
        return new Extraction(extract(messages), 0, 0, 0);
    }

    /** Takes no facts: a conversation is remembered as its messages only. */
    static FactExtractor none() {
        return messages -> List.of();
    }

    /**
     * A fact as an extractor states it.
     *
     * @param text the fact, one short sentence; not blank
     * @param kind its kind: {@code preference}, {@code decision}, {@code event}, {@code fact} or another word; not blank,
 *     at most 64 chars
     * @param from the positions of the messages it came from, at least one
     */
    record Fact(String text, String kind, List<Integer> from) {
        /** Checks the components and copies the list. */
        public Fact {
            Objects.requireNonNull(text, "text");
            if (text.isBlank()) {
                throw new IllegalArgumentException("a fact's text must not be blank");
            }
            Checks.identifier(Objects.requireNonNull(kind, "kind"), "fact kind", 64);
            from = List.copyOf(from);
            if (from.isEmpty()) {
                throw new IllegalArgumentException("a fact must name the message it came from");
            }
        }
    }

    /**
     * What one extraction gave and cost.
     *
     * @param facts the facts
     * @param inputTokens tokens a model read, as it reported them; 0 without a model
     * @param outputTokens tokens a model wrote; 0 without a model
     * @param cost their price, in the unit the extractor was given prices in; 0 when not priced
     */
    record Extraction(List<Fact> facts, long inputTokens, long outputTokens, double cost) {
        /** Checks the counts and copies the list. */
        public Extraction {
            facts = List.copyOf(facts);
            if (inputTokens < 0 || outputTokens < 0 || !(cost >= 0) || Double.isInfinite(cost)) {
                throw new IllegalArgumentException("token counts and cost must be finite and not negative: "
                        + inputTokens + ", " + outputTokens + ", " + cost);
            }
        }
    }
}
