package dev.memfas.djl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextItem;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.DroppedMemory;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The budget as a ceiling, end to end with the default model: a question over a team's notes gets the notes that bear
 * on it, not a budget of padding; a caller who asks to fill the budget still can.
 */
final class BudgetCeilingTest extends TeamNotesFixture {
    private static final Set<String> AUTHENTICATION = Set.of("auth-owner", "auth-sso", "auth-tokens", "auth-review",
            "auth-oncall");

    private static ContextRequest.Builder ask() {
        return ContextRequest.builder("Who owns authentication?").sessionId("s").tokenBudget(2000)
                .recordAccess(false);
    }

    @Test
    void aQuestionOverTheNotes_getsTheNotesThatBearOnIt_andLeavesTheRestOfTheBudgetFree() {
        ContextResponse r = curator.getContext(ask().explain(true).build());

        assertThat(r.memoryIds()).startsWith("auth-owner").isSubsetOf(AUTHENTICATION);
        assertThat(r.tokensUsed()).isLessThan(400);
        // What was left out past where the turn's relevance ended says so.
        assertThat(r.dropped()).extracting(DroppedMemory::memoryId).contains("other-0");
        assertThat(r.dropped()).filteredOn(d -> d.memoryId().equals("other-0")).singleElement()
                .satisfies(d -> assertThat(d.reason()).isIn(DroppedMemory.Reason.BELOW_RELATIVE_FLOOR,
                        DroppedMemory.Reason.BELOW_MIN_SCORE));
    }

    @Test
    void aCallerWhoAsksToFillTheBudget_getsItFilled() {
        ContextResponse ceiling = curator.getContext(ask().build());
        ContextResponse filled = curator.getContext(ask().fillBudget(true).build());

        assertThat(filled.memoryIds()).startsWith("auth-owner").containsAll(ceiling.memoryIds())
                .hasSizeGreaterThan(ceiling.memoryIds().size() + 10);
        assertThat(filled.tokensUsed()).isGreaterThan(3 * ceiling.tokensUsed()).isLessThanOrEqualTo(2000);
        assertThat(filled.items()).extracting(ContextItem::memoryId).anyMatch(id -> id.startsWith("other-"));
    }
}
