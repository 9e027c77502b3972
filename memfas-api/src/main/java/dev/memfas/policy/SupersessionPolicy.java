package dev.memfas.policy;

import dev.memfas.ContextCurator;
import java.util.Objects;

/**
 * What the curator does when a new memory looks like an update of a stored one; set on the curator's builder
 * ({@code Memfas.newBuilder().supersession(policy)}).
 *
 * <p>A stored memory is a candidate when the new one is very close to it (an embedding cosine of at least
 * {@link #similarity()}, but not the same text: that is a duplicate, see {@link DuplicatePolicy}), has the same
 * namespace, scope and kind, is dated later, and the stored one is in force (not superseded, archived, expired or past
 * its {@code validUntil}). The source may differ: an update usually comes from a later conversation than the fact it
 * changes. Of several candidates, the closest is taken. No model is asked: the rule is a cosine, so with the default
 * model and similarity it finds "Kafka retention is 14 days on the orders topic." after "... 7 days ..." (0.93) and
 * "I now have 5 pairs of running shoes." after "I have 4 ..." (0.92), but not that "Aiko now owns checkout-api"
 * replaces "Checkout-api owner is Dev" (0.83, as close as other facts about one service are) or "Deploys run on
 * Thursdays now." replaces "... on Tuesdays." (0.89); use {@link dev.memfas.Memories#supersede} for what only the
 * caller knows.
 *
 * <ul>
 *   <li>{@link Mode#OFF} (the default): nothing is looked for.
 *   <li>{@link Mode#SUGGEST}: the new memory is stored with the candidate's id in its metadata, under
 *       {@link #SUGGESTION_KEY}, for the caller to confirm with {@code supersede}; nothing else changes.
 *   <li>{@link Mode#APPLY}: the new memory supersedes the candidate, as {@link dev.memfas.Memories#supersede} would:
 * the       candidate is kept, marked superseded and valid until the new one became valid, and left out of contexts.
 * </ul>
 *
 * <p>Needs an embedder; without one nothing is found. It suits memories that state facts, not conversation turns: two
 * turns about different events ("I went to the museum yesterday", "I went to the support group yesterday") are as
 * close as a fact and its update, and applying the rule to the turns of the evaluation conversations hid the evidence
 * of up to half of LoCoMo's temporal questions (see {@code docs/experiments.md}). Off by default for that reason.
 *
 * @param mode what is done with a candidate
 * @param similarity the cosine at or above which a stored memory is a candidate, in (0, 1]
 */
public record SupersessionPolicy(Mode mode, double similarity) {
    /** The similarity used when none is given: above rewordings of different facts, below one fact's rewordings. */
    public static final double DEFAULT_SIMILARITY = 0.90;
    /** The metadata key under which {@link Mode#SUGGEST} names the memory a new one may supersede. */
    public static final String SUGGESTION_KEY = "memfas.may_supersede";

    /** What is done with a candidate. */
    public enum Mode {
        /** Look for none. */
        OFF,
        /** Name it in the new memory's metadata. */
        SUGGEST,
        /** Supersede it. */
        APPLY
    }

    /**
     * Checks the components.
     *
     * @throws IllegalArgumentException if the similarity is not in (0, 1]
     */
    public SupersessionPolicy {
        Objects.requireNonNull(mode, "mode");
        if (!(similarity > 0 && similarity <= 1)) {
            throw new IllegalArgumentException("supersession similarity must be in (0, 1]: " + similarity);
        }
    }

    /** Look for no updates: the default. */
    public static SupersessionPolicy off() {
        return new SupersessionPolicy(Mode.OFF, DEFAULT_SIMILARITY);
    }

    /** Name the stored memory a new one may update, at or above the given cosine. */
    public static SupersessionPolicy suggest(double cosine) {
        return new SupersessionPolicy(Mode.SUGGEST, cosine);
    }

    /** Supersede the stored memory a new one updates, at or above the given cosine. */
    public static SupersessionPolicy apply(double cosine) {
        return new SupersessionPolicy(Mode.APPLY, cosine);
    }
}
