package dev.memfas.micrometer;

import dev.memfas.telemetry.ExtractionTelemetry;
import dev.memfas.telemetry.TelemetryListener;
import dev.memfas.telemetry.TurnTelemetry;
import dev.memfas.telemetry.UsageTelemetry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Objects;

/**
 * Every curated turn as Micrometer meters, named by Micrometer's conventions and tagged with the turn's
 * {@code namespace}. Plug it in as a telemetry listener, so memfas itself never depends on Micrometer:
 *
 * <pre>{@code
 * ContextCurator curator = Memfas.newBuilder().telemetryListener(new MemfasMeters(registry)).build();
 * }</pre>
 *
 * <table>
 *   <caption>meters</caption>
 *   <tr><th>name</th><th>type</th><th>what</th></tr>
 *   <tr><td>{@code memfas.turn}</td><td>timer</td><td>each {@code getContext}, from start to response</td></tr>
 *   <tr><td>{@code memfas.context.tokens}</td><td>summary (tokens)</td><td>the tokens each context used</td></tr>
 *   <tr><td>{@code memfas.context.budget}</td><td>summary (tokens)</td><td>each turn's budget</td></tr>
 *   <tr><td>{@code memfas.tokens.saved}</td><td>counter (tokens)</td><td>baseline minus used, for turns that give a
 *       baseline</td></tr>
 *   <tr><td>{@code memfas.memories.scored}, {@code .included}, {@code .dropped}</td><td>summaries</td><td>the
 *       candidates each turn scored, included and left out</td></tr>
 *   <tr><td>{@code memfas.topic.shifts}</td><td>counter</td><td>turns that moved their session to a new topic</td></tr>
 *   <tr><td>{@code memfas.triggers.fired}</td><td>counter</td><td>triggers that fired</td></tr>
 *   <tr><td>{@code memfas.usage.reported}</td><td>counter (memories)</td><td>memories reported through
 *       {@code reportUsage}, tagged {@code helpful} true or false</td></tr>
 *   <tr><td>{@code memfas.facts.taken}</td><td>counter (facts)</td><td>facts taken from remembered
 *       conversations</td></tr>
 *   <tr><td>{@code memfas.facts.failed}</td><td>counter</td><td>conversations whose extraction failed</td></tr>
 *   <tr><td>{@code memfas.facts.model.tokens}</td><td>counter (tokens)</td><td>tokens the extractor's model read and
 *       wrote, tagged {@code direction} input or output</td></tr>
 *   <tr><td>{@code memfas.facts.cost}</td><td>counter</td><td>their price, in the unit the extractor was given prices
 *       in</td></tr>
 * </table>
 *
 * Thread-safe.
 */
public final class MemfasMeters implements TelemetryListener {
    private final MeterRegistry registry;

    public MemfasMeters(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    @Override
    public void onTurn(TurnTelemetry t) {
        String ns = t.namespace();
        Timer.builder("memfas.turn").description("A getContext call, from start to response").tag("namespace", ns)
                .register(registry).record(t.latency());
        summary("memfas.context.tokens", "tokens", "The tokens a context used", ns).record(t.curatedTokens());
        summary("memfas.context.budget", "tokens", "A turn's token budget", ns).record(t.budget());
        summary("memfas.memories.scored", "memories", "The candidates a turn scored", ns).record(t.memoriesScored());
        summary("memfas.memories.included", "memories", "The memories a context included", ns)
                .record(t.memoriesIncluded());
        summary("memfas.memories.dropped", "memories", "The candidates a turn left out", ns)
                .record(t.memoriesDropped());
        t.tokensSaved().ifPresent(saved -> counter("memfas.tokens.saved", "tokens",
                "Baseline tokens minus the tokens used", ns).increment(Math.max(0, saved)));
        if (t.topicShifted()) {
            counter("memfas.topic.shifts", null, "Turns that moved their session to a new topic", ns).increment();
        }
        if (!t.triggersMatched().isEmpty()) {
            counter("memfas.triggers.fired", null, "Triggers that fired", ns).increment(t.triggersMatched().size());
        }
    }

    @Override
    public void onUsage(UsageTelemetry u) {
        Counter.builder("memfas.usage.reported").description("Memories a caller reported helpful or not")
                .baseUnit("memories").tag("namespace", u.namespace()).tag("helpful", Boolean.toString(u.helpful()))
                .register(registry).increment(u.memoryIds().size());
    }

    @Override
    public void onExtraction(ExtractionTelemetry e) {
        String ns = e.namespace();
        counter("memfas.facts.taken", "facts", "Facts taken from remembered conversations", ns).increment(e.facts());
        if (e.failed()) {
            counter("memfas.facts.failed", null, "Conversations whose facts could not be taken", ns).increment();
        }
        for (String direction : new String[] {"input", "output"}) {
            Counter.builder("memfas.facts.model.tokens").description("Tokens the fact extractor's model read or wrote")
                    .baseUnit("tokens").tag("namespace", ns).tag("direction", direction).register(registry)
                    .increment(direction.equals("input") ? e.inputTokens() : e.outputTokens());
        }
        counter("memfas.facts.cost", null, "The price of the fact extractor's tokens", ns).increment(e.cost());
    }

    private DistributionSummary summary(String name, String unit, String description, String namespace) {
        return DistributionSummary.builder(name).baseUnit(unit).description(description).tag("namespace", namespace)
                .register(registry);
    }

    private Counter counter(String name, String unit, String description, String namespace) {
        Counter.Builder b = Counter.builder(name).description(description).tag("namespace", namespace);
        if (unit != null) {
            b.baseUnit(unit);
        }
        return b.register(registry);
    }
}
