package dev.memfas.core.turn;

import dev.memfas.ContextRequest;
import dev.memfas.ScopeBudgets;
import dev.memfas.core.curator.CuratorSettings;
import dev.memfas.core.envelope.MatchingPassage;

/**
 * How one turn's budget is to be filled, resolved from its request and the curator's settings: the budget (the
 * request's, else its level's, else its tier's memory share, else the curator's default), its shares by scope, whether
 * items are grouped by scope, the lowest score a ranked memory may have, the share of the turn's best score below which
 * relevance ends (0 when the request fills its budget), the model's relevance floor (-1 for none), the most memories
 * the context holds, and the
 * most the state section may take (the tier's state share, else a quarter of the budget), and the text the turn is
 * searched by, whose passage a long memory is cut to ({@link MatchingPassage}).
 */
public record FillPlan(int budget, ScopeBudgets scopeBudgets, boolean groupByScope, double minScore,
        double relativeFloor, double relevanceFloor, int maxItems, int stateTokens, String searchText) {

    /** The plan of a request under the curator's settings, searched by {@code searchText} ({@link Turn#searchText}). */
    static FillPlan of(ContextRequest request, CuratorSettings settings, String searchText) {
        int budget = request.tokenBudget().isPresent() ? request.tokenBudget().getAsInt()
                : request.level() != null ? request.level().tokens()
                : request.tier() != null ? request.tier().memoryTokens()
                : settings.tokenBudget();
        return new FillPlan(budget,
                request.scopeBudgets() != null ? request.scopeBudgets() : settings.scopeBudgets(),
                request.groupByScope(),
                request.level() != null ? request.level().minScore() : settings.minScore(),
                request.fillBudget() ? 0 : settings.relativeFloor(),
                settings.relevanceFloor(),
                request.level() != null ? request.level().maxItems() : Integer.MAX_VALUE,
                request.tier() != null ? Math.min(budget, request.tier().stateTokens()) : budget / 4,
                searchText);
    }
}
