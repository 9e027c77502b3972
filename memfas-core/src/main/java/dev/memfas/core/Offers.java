package dev.memfas.core;

import dev.memfas.MemoryStore;
import dev.memfas.SaveOutcome;
import dev.memfas.SavePolicy;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a save policy to what a tool returned ({@link dev.memfas.ContextCurator#offer}): asks the curator's
 * {@link SavePolicy} (within its timeout; one that throws, is late or names a key that is no valid state key is set
 * aside and {@link SaveRules} decide), and saves what it keeps as state: a JSON object with the tool, the goal, the
 * reason and the result (as JSON if it is JSON, else as a string). An existing key is never overwritten: a different
 * value goes under the key's next free version ({@code tool/profile.v2}), and the same value is not saved again.
 * Thread-safe.
 */
final class Offers implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Offers.class);
    private static final int MOST_VERSIONS = 1_000;
    private static final SaveRules RULES = new SaveRules();

    private final MemoryStore store;
    private final StateKeys state;
    private final SavePolicy policy;
    private final Duration timeout;
    private final ExecutorService deciding;

    Offers(MemoryStore store, StateKeys state, SavePolicy policy, Duration timeout) {
        this.store = store;
        this.state = state;
        this.policy = policy;
        this.timeout = timeout;
        this.deciding = policy == null ? null : Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "memfas-save-policy");
            t.setDaemon(true);
            return t;
        });
    }

    SaveOutcome offer(String namespace, String toolName, String result, String goal) {
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
            return new SaveOutcome(false, null, decision.reason(), decidedBy);
        }
        String value = wrap(offer, decision.reason());
        String key = decision.key();
        for (int version = 1; version <= MOST_VERSIONS; version++) {
            String candidate = version == 1 ? key : key + ".v" + version;
            Optional<String> existing = store.loadState(namespace, candidate);
            if (existing.isEmpty()) {
                state.save(namespace, candidate, value);
                return new SaveOutcome(true, candidate, decision.reason(), decidedBy);
            }
            if (existing.get().equals(value)) {
                return new SaveOutcome(false, candidate, "already kept under " + candidate, decidedBy);
            }
        }
        return new SaveOutcome(false, null, "the key " + key + " has " + MOST_VERSIONS + " versions already",
                decidedBy);
    }

    /** The policy's decision, or null if it failed, was late, or named no valid key. */
    private SavePolicy.Decision ask(SavePolicy.Offer offer) {
        CompletableFuture<SavePolicy.Decision> answer = CompletableFuture.supplyAsync(() -> {
            try {
                return policy.decide(offer);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, deciding);
        try {
            SavePolicy.Decision d = answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            if (d == null) {
                return null;
            }
            if (d.save()) {
                MemoryStore.checkStateKey(d.key());
                if (d.key().startsWith(StateKeys.RESERVED_PREFIX)) {
                    throw new IllegalArgumentException("reserved key " + d.key());
                }
            }
            return d;
        } catch (java.util.concurrent.TimeoutException e) {
            answer.cancel(true);
            LOG.warn("the save policy took longer than {}; the rules decide this offer", timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | RuntimeException e) {
            LOG.warn("the save policy failed ({}); the rules decide this offer", e.getMessage());
        }
        return null;
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
            deciding.shutdownNow();
        }
    }
}
