package dev.memfas.core.curator;

import dev.memfas.State;
import dev.memfas.core.text.Json;
import dev.memfas.core.text.JsonSyntax;
import dev.memfas.policy.SavePolicy;
import dev.memfas.spi.StateStore;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Applies a save policy to what a tool returned ({@link dev.memfas.State#offer}): asks the curator's
 * {@link SavePolicy} (within its timeout; one that throws, is late or names a key that is no valid state key is set
 * aside and {@link SaveRules} decide), and saves what it keeps as state: a JSON object with the tool, the goal, the
 * reason and the result (as JSON if it is JSON, else as a string). An existing key is never overwritten: a different
 * value goes under the key's next free version ({@code tool/profile.v2}), and the same value is not saved again.
 * Thread-safe.
 */
final class Offers implements AutoCloseable {
    private static final String FALLBACK = "the rules decide this offer";
    private static final int MOST_VERSIONS = 1_000;
    private static final SaveRules RULES = new SaveRules();

    private final StateStore store;
    private final StateKeys state;
    private final SavePolicy policy;
    private final GuardedCall deciding;

    Offers(StateStore store, StateKeys state, SavePolicy policy, Duration timeout) {
        this.store = store;
        this.state = state;
        this.policy = policy;
        this.deciding = policy == null ? null : new GuardedCall("the save policy", timeout);
    }

    State.SaveOutcome offer(String namespace, String toolName, String result, String goal) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(toolName, "toolName");
        Objects.requireNonNull(result, "result");
        if (toolName.isBlank() || toolName.length() > 200) {
            throw new IllegalArgumentException("a tool name must be 1 to 200 chars and not blank: '" + toolName + "'");
        }
        SavePolicy.Offer offer = new SavePolicy.Offer(toolName, result, goal == null ? "" : goal);
        SavePolicy.Decision decision = policy == null ? null : ask(offer);
        String decidedBy = decision == null ? "rules" : "policy";
        if (decision == null) {
            decision = RULES.decide(offer);
        }
        if (!decision.save()) {
            return new State.SaveOutcome(false, null, decision.reason(), decidedBy);
        }
        String value = wrap(offer, decision.reason());
        String key = decision.key();
        for (int version = 1; version <= MOST_VERSIONS; version++) {
            String candidate = version == 1 ? key : key + ".v" + version;
            Optional<String> existing = store.loadState(namespace, candidate);
            if (existing.isEmpty()) {
                state.save(namespace, candidate, value);
                return new State.SaveOutcome(true, candidate, decision.reason(), decidedBy);
            }
            if (existing.get().equals(value)) {
                return new State.SaveOutcome(false, candidate, "already kept under " + candidate, decidedBy);
            }
        }
        return new State.SaveOutcome(false, null, "the key " + key + " has " + MOST_VERSIONS + " versions already",
                decidedBy);
    }

    /** The policy's decision, or null if it failed, was late, or named no valid key. */
    private SavePolicy.Decision ask(SavePolicy.Offer offer) {
        SavePolicy.Decision d = deciding.call(() -> policy.decide(offer), FALLBACK);
        if (d != null && d.save()) {
            try {
                StateStore.checkStateKey(d.key());
            } catch (IllegalArgumentException e) {
                deciding.refused("named an invalid key (" + e.getMessage() + ")", FALLBACK);
                return null;
            }
            if (d.key().startsWith(StateKeys.RESERVED_PREFIX)) {
                deciding.refused("named one of memfas's own keys, " + d.key(), FALLBACK);
                return null;
            }
        }
        return d;
    }

    /** The saved value: the offer and the reason, with the result as JSON when it is JSON. */
    private static String wrap(SavePolicy.Offer offer, String reason) {
        String result;
        try {
            JsonSyntax.check(offer.result(), "result");
            result = offer.result().strip();
        } catch (IllegalArgumentException notJson) {
            result = quote(offer.result());
        }
        return "{\"tool\": " + quote(offer.toolName()) + ", \"goal\": " + quote(offer.goal()) + ", \"reason\": "
                + quote(reason) + ", \"result\": " + result + "}";
    }

    private static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2);
        Json.appendString(sb, s);
        return sb.toString();
    }

    @Override
    public void close() {
        if (deciding != null) {
            deciding.close();
        }
    }
}
