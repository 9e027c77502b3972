package dev.memfas;

import dev.memfas.policy.SavePolicy;
import java.util.Objects;

/**
 * What became of a tool's result offered for saving ({@link ContextCurator#offer}).
 *
 * @param saved whether it was saved
 * @param key the state key it was saved under (a new version of the key the policy chose, if that key held another
 *     value); {@code null} when not saved
 * @param reason why, as the policy or the rules said
 * @param decidedBy {@code "policy"} when the curator's {@link SavePolicy} decided, {@code "rules"} when its rules did
 */
public record SaveOutcome(boolean saved, String key, String reason, String decidedBy) {
    /** Checks the parts are present. */
    public SaveOutcome {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(decidedBy, "decidedBy");
    }
}
