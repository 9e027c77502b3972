package dev.memfas.policy;

import dev.memfas.ContextCurator;
import java.util.Objects;

/**
 * Decides whether what a tool returned is worth keeping in state, and under which key
 * ({@link dev.memfas.State#offer}). The curator's default decides by rules; a model-backed policy lives in
 * {@code memfas-llm}. The curator never trusts a policy beyond its answer: one that throws or answers with a key that
 * is not a valid state key is set aside for that offer and the rules decide, and an existing key is never overwritten
 * (the value goes under the next free version of the key). Implementations must be thread-safe.
 */
@FunctionalInterface
public interface SavePolicy {

    /**
     * What a tool returned, offered for saving.
     *
     * @param toolName the tool's name
     * @param result what it returned, as text (JSON or not)
     * @param goal what the agent was doing; may be empty
     */
    record Offer(String toolName, String result, String goal) {
        /** Checks the parts are present. */
        public Offer {
            Objects.requireNonNull(toolName, "toolName");
            Objects.requireNonNull(result, "result");
            Objects.requireNonNull(goal, "goal");
        }
    }

    /**
     * A decision.
     *
     * @param save whether to save
     * @param key the state key to save under; {@code null} when not saving
     * @param reason why, in a few words
     */
    record Decision(boolean save, String key, String reason) {
        /** Checks a save names its key and every decision says why. */
        public Decision {
            Objects.requireNonNull(reason, "reason");
            if (save && key == null) {
                throw new IllegalArgumentException("a decision to save needs a key");
            }
        }

        /** Save under this key. */
        public static Decision save(String key, String reason) {
            return new Decision(true, Objects.requireNonNull(key, "key"), reason);
        }

        /** Do not save. */
        public static Decision skip(String reason) {
            return new Decision(false, null, reason);
        }
    }

    /**
     * Decides on one offer.
     *
     * @throws Exception if it cannot decide; the curator's rules decide instead
     */
    Decision decide(Offer offer) throws Exception;
}
