package dev.memfas;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The curated context for one turn and an account of how it was made.
 *
 * <p>The invariant: {@code tokensUsed == tokenizer.count(context) <= budget}. An empty result is the empty string with
 * 0 tokens. Immutable.
 *
 * @param context the text to inject into the model's prompt; the envelope format is described in
 *     {@code docs/budget-and-envelope.md}
 * @param tokensUsed the exact token count of {@code context}, envelope included
 * @param budget the budget this turn was curated to
 * @param items the included memories, triggered first, then by descending score
 * @param memoriesScored how many candidate memories were scored
 * @param memoriesDropped how many candidates (and trigger-linked memories) were left out: under the minimum score,
 *     duplicates, or not fitting the budget or trigger reserve
 * @param triggersMatched the keywords of the triggers that fired
 * @param topic a short label of the session's current topic; empty when unknown
 * @param topicShifted whether this query moved the session to a new topic
 * @param topicConfidence how well this turn agrees with the topic it is labelled with, from 0 to 1: with an embedder
 *     the cosine between the turn's vector and the session topic's, without one the share of the query's words the
 *     topic already held. A topic's first turn has 1; it falls as turns drift from what the label was made of
 * @param topicHistory the labels of the session's earlier topics, oldest first, at most nine; empty without a session
 * @param latency the time {@code getContext} took
 * @param dropped when the request asked for an explanation ({@link ContextRequest#explain()}), every candidate left
 *     out, best first, with the reason; empty otherwise
 * @param stateKeys the state keys whose values the context holds, in context order; empty unless the request asked
 *     for state ({@link ContextRequest#state()})
 */
public record ContextResponse(
        String context,
        int tokensUsed,
        int budget,
        List<ContextItem> items,
        int memoriesScored,
        int memoriesDropped,
        List<String> triggersMatched,
        String topic,
        boolean topicShifted,
        double topicConfidence,
        List<String> topicHistory,
        Duration latency,
        List<DroppedMemory> dropped,
        List<String> stateKeys) {

    /** Copies the lists and checks the components are present. */
    public ContextResponse {
        Objects.requireNonNull(context, "context");
        items = List.copyOf(items);
        stateKeys = List.copyOf(Objects.requireNonNull(stateKeys, "stateKeys"));
        triggersMatched = List.copyOf(triggersMatched);
        Objects.requireNonNull(topic, "topic");
        topicHistory = List.copyOf(topicHistory);
        Objects.requireNonNull(latency, "latency");
        dropped = List.copyOf(dropped);
    }

    /** The ids of the included memories, in context order. */
    public List<String> memoryIds() {
        return items.stream().map(ContextItem::memoryId).toList();
    }
}
