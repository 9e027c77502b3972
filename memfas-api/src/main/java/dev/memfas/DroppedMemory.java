package dev.memfas;

import dev.memfas.spi.Embedder;
import java.util.Objects;

/**
 * A candidate memory a turn left out, and why: what {@link ContextResponse#dropped()} lists when the request asked for
 * an explanation ({@link ContextRequest.Builder#explain(boolean)}).
 *
 * @param memoryId the memory
 * @param score its weighted score in the turn
 * @param reason why it is not in the context
 * @param duplicateOf for {@link Reason#DUPLICATE}, the included memory it repeats; {@code null} otherwise
 */
public record DroppedMemory(String memoryId, double score, Reason reason, String duplicateOf) {
    /** Why a candidate was left out. */
    public enum Reason {
        /** It scored under the minimum score (the curator's, or the request's level's). */
        BELOW_MIN_SCORE,
        /**
         * It scored under the turn's relative floor, a share of its best memory's score: where the turn's relevance
         * ended, with the budget left free (unless the request asked to fill it).
         */
        BELOW_RELATIVE_FLOOR,
        /**
         * Its text, or its meaning (cosine at or above the duplicate threshold), repeats an included memory; or it is
         * a fact taken from a conversation whose turns are all included ({@code duplicateOf} the first of them).
         */
        DUPLICATE,
        /** It did not fit what was left of the budget (or, linked from a trigger, of the trigger reserve). */
        OVER_BUDGET,
        /** The context already held the most memories the request's level allows ({@link ContextLevel#maxItems()}). */
        OVER_ITEM_LIMIT,
        /** The request asked for a relevance check, and the curator's relevance judge did not choose it. */
        NOT_CHOSEN_BY_JUDGE,
        /**
         * It was not relevant enough for the turn: no memory reached the relevance floor (the query matches nothing
         * stored, and only triggered and pinned memories were taken), or the best stayed under the meaning-alone
         * floor sharing no word with the query, and this one is not the best and either shares no word with the
         * query or is under the relevance floor ({@link Embedder#meaningAloneFloor()}).
         */
        BELOW_RELEVANCE_FLOOR
    }

    /** Checks the components are present, and that only a duplicate names what it repeats. */
    public DroppedMemory {
        Objects.requireNonNull(memoryId, "memoryId");
        Objects.requireNonNull(reason, "reason");
        if ((reason == Reason.DUPLICATE) != (duplicateOf != null)) {
            throw new IllegalArgumentException("duplicateOf must be set exactly for DUPLICATE: " + reason + ", "
                    + duplicateOf);
        }
    }
}
