package dev.memfas.core.curator;

import dev.memfas.ContextItem;
import dev.memfas.ContextResponse;
import dev.memfas.DroppedMemory;
import dev.memfas.ScoringWeights;
import dev.memfas.Trigger;
import dev.memfas.core.envelope.BudgetFiller;
import dev.memfas.core.envelope.DropExplainer;
import dev.memfas.core.text.TextAnalyzer;
import dev.memfas.core.turn.Admission;
import dev.memfas.core.turn.NamespaceTriggers;
import dev.memfas.core.turn.SessionState;
import dev.memfas.core.turn.Turn;
import dev.memfas.core.turn.TurnWorkspace;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.Tokenizer;
import dev.memfas.telemetry.TurnTelemetry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The end of a turn: records the access of the included memories (in the store and in the session) unless the request
 * says not to, explains what was left out when the request asks, makes the response and tells every telemetry
 * listener. Thread-safe.
 */
final class TurnPublisher {
    /** Logged under the curator's name, the category users configure for memfas's turns. */
    private static final int TOP_MEMORIES_IN_TELEMETRY = 5;

    private final MemoryStore store;
    private final Tokenizer tokenizer;
    private final ScoringWeights weights;
    private final boolean redactQueries;
    private final DropExplainer dropExplainer;
    private final Listeners listeners;
    private final AtomicLong turns = new AtomicLong();
    /** Turns per namespace, so a tenant's statistics count its own turns only. */
    private final java.util.concurrent.ConcurrentMap<String, java.util.concurrent.atomic.LongAdder> turnsByNamespace =
            new java.util.concurrent.ConcurrentHashMap<>();

    TurnPublisher(MemoryStore store, Tokenizer tokenizer, CuratorSettings settings, Listeners listeners) {
        this.store = store;
        this.tokenizer = tokenizer;
        this.weights = settings.weights();
        this.redactQueries = settings.redactQueries();
        this.dropExplainer = new DropExplainer(settings.duplicateSimilarity());
        this.listeners = listeners;
    }

    /** How many turns were published. */
    long turns() {
        return turns.get();
    }

    /** How many turns of one namespace were published. */
    long turns(String namespace) {
        java.util.concurrent.atomic.LongAdder n = turnsByNamespace.get(namespace);
        return n == null ? 0 : n.sum();
    }

    ContextResponse publish(Turn turn, SessionState.TopicUpdate topic, NamespaceTriggers.Fired fired,
            TurnWorkspace work, BudgetFiller.Filled filled, Admission admission) {
        if (turn.request().recordAccess() && !filled.includedIds().isEmpty()) {
            store.recordAccess(turn.namespace(), filled.includedIds(), turn.now());
            if (turn.session() != null) {
                turn.session().recordIncluded(TextAnalyzer.words(turn.request().query()), filled.includedIds(),
                        turn.now());
            }
        }
        Duration latency = Duration.ofNanos(System.nanoTime() - turn.startNanos());
        List<String> firedKeywords = new ArrayList<>(fired.triggers().size());
        for (Trigger t : fired.triggers()) {
            firedKeywords.add(t.keyword());
        }
        List<DroppedMemory> dropped = turn.request().explain()
                ? dropExplainer.explain(work.candidates(), work.linked(), work.linkedCount(), work.ranking(),
                        filled.included(), admission, turn.plan())
                : List.of();
        ContextResponse response = new ContextResponse(filled.context(), filled.tokens(), turn.budget(),
                filled.items(), work.candidates().size(), filled.dropped(), firedKeywords, topic.label(),
                topic.shifted(), topic.confidence(), topic.earlier(), latency, dropped, filled.stateKeys());
        if (turn.session() != null) {
            turn.session().recordTurn(turn.now(), filled.tokens(), turn.request().baselineTokens(), latency,
                    filled.includedIds());
        }
        turns.incrementAndGet();
        turnsByNamespace.computeIfAbsent(turn.namespace(), k -> new java.util.concurrent.atomic.LongAdder())
                .increment();
        if (!listeners.isEmpty()) {
            tell(turn, topic, response, filled);
        }
        return response;
    }

    private void tell(Turn turn, SessionState.TopicUpdate topic, ContextResponse r, BudgetFiller.Filled filled) {
        var request = turn.request();
        List<TurnTelemetry.TopMemory> top = new ArrayList<>();
        filled.items().stream()
                .sorted((a, b) -> Double.compare(b.score(), a.score()))
                .limit(TOP_MEMORIES_IN_TELEMETRY)
                .forEach(i -> top.add(new TurnTelemetry.TopMemory(i.memoryId(), i.score(), i.factors(),
                        i.source() == null ? "" : i.source(), redactQueries ? "" : i.text())));
        OptionalInt baseline = request.baselineTokens();
        OptionalInt saved = baseline.isPresent()
                ? OptionalInt.of(baseline.getAsInt() - r.tokensUsed()) : OptionalInt.empty();
        OptionalDouble ratio = baseline.isPresent() && baseline.getAsInt() > 0
                ? OptionalDouble.of((double) r.tokensUsed() / baseline.getAsInt()) : OptionalDouble.empty();
        TurnTelemetry t = new TurnTelemetry(turn.now(), request.sessionId(),
                request.sessionId() == null ? 0 : topic.turn(), request.namespace(),
                redactQueries ? null : request.query(), redactQueries ? null : request.task(),
                tokenizer.count(request.query()), redactQueries ? "" : r.topic(), r.topicShifted(),
                r.topicConfidence(), baseline,
                r.tokensUsed(), r.budget(), r.memoriesScored(), r.items().size(), r.memoriesDropped(),
                r.triggersMatched(), saved, ratio, r.latency(), r.items().stream().map(ContextItem::memoryId).toList(),
                top, weights);
        listeners.turn(t);
    }
}
