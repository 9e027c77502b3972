package dev.memfas.policy;

import dev.memfas.ContextCurator;
import java.util.Objects;

/**
 * What {@link ContextCurator#remember(Memory)} does with a memory, given without an id, that says what a stored memory
 * already says; set on the curator's builder ({@code Memfas.newBuilder().writeDuplicates(policy)}).
 *
 * <p>Only a memory given without an id is compared: one given with an id is stored under it. It is compared with the
 * stored memories that are the same kind of record: of its namespace, scope, source and kind, in force now (not
 * superseded, not past their {@code validUntil}, not expired), and, when it was given a {@code createdAt}, created at
 * that same moment, since the same words said at two moments are two events; except for standing guidance (kinds
 * {@code preference}, {@code rule}, {@code correction}, {@code decision}, {@code anti_pattern}), which is the same
 * whenever it is said. A memory said in two conversations has two sources, and is two memories.
 *
 * <ul>
 *   <li>{@link Mode#KEEP_ALL}: every memory is stored.
 *   <li>{@link Mode#SKIP_EXACT} (the default): a memory whose text equals a stored one's, ignoring case, punctuation
 *       and spacing, is not stored; the stored one's evidence count rises and {@code remember} returns it.
 *   <li>{@link Mode#SKIP_SIMILAR}: the same, and also for a text whose embedding has at least {@link #similarity()}
 *       cosine with a stored one's.
 *   <li>{@link Mode#MERGE_SIMILAR}: exact duplicates are skipped; a similar memory's text replaces the stored one's
 *       (whose state before is kept as a version) and its evidence count rises.
 * </ul>
 *
 * <p>Similarity needs an embedder; without one, only exact duplicates are found. The similarity is a cosine of the
 * curator's model. 0.95 suits the default bge-small-en-v1.5 (int8): measured with it, rewordings of one fact scored
 * 0.85 to 0.97 ("The checkout-api owner is Dev." and "Dev owns the checkout-api service." 0.968), the same fact with
 * a changed number 0.93 ("Kafka retention is 7 days on the orders topic." and "... 14 days ..."), which must not be
 * skipped, and unrelated sentences about 0.5.
 *
 * @param mode what is done with a duplicate
 * @param similarity the cosine at or above which two texts are similar, in (0, 1]
 */
public record DuplicatePolicy(Mode mode, double similarity) {
    /** The similarity used when none is given. */
    public static final double DEFAULT_SIMILARITY = 0.95;

    /** What is done with a duplicate. */
    public enum Mode {
        /** Store every memory. */
        KEEP_ALL,
        /** Skip exact duplicates. */
        SKIP_EXACT,
        /** Skip exact and similar duplicates. */
        SKIP_SIMILAR,
        /** Skip exact duplicates, merge similar ones into the stored memory. */
        MERGE_SIMILAR
    }

    /**
     * Checks the components.
     *
     * @throws IllegalArgumentException if the similarity is not in (0, 1]
     */
    public DuplicatePolicy {
        Objects.requireNonNull(mode, "mode");
        if (!(similarity > 0 && similarity <= 1)) {
            throw new IllegalArgumentException("duplicate similarity must be in (0, 1]: " + similarity);
        }
    }

    /** Store every memory. */
    public static DuplicatePolicy keepAll() {
        return new DuplicatePolicy(Mode.KEEP_ALL, DEFAULT_SIMILARITY);
    }

    /** Skip exact duplicates: the default. */
    public static DuplicatePolicy skipExact() {
        return new DuplicatePolicy(Mode.SKIP_EXACT, DEFAULT_SIMILARITY);
    }

    /** Skip exact duplicates and those at or above the given cosine. */
    public static DuplicatePolicy skipSimilar(double cosine) {
        return new DuplicatePolicy(Mode.SKIP_SIMILAR, cosine);
    }

    /** Skip exact duplicates, and merge those at or above the given cosine into the stored memory. */
    public static DuplicatePolicy mergeSimilar(double cosine) {
        return new DuplicatePolicy(Mode.MERGE_SIMILAR, cosine);
    }
}
