package dev.memfas.core.envelope;

import dev.memfas.Scope;
import dev.memfas.ScopeBudgets;

/**
 * One turn's shares of the budget by scope type ({@link ScopeBudgets}), and what each has taken so far: the budget
 * filler's first walk takes a memory only if its item fits in what is left of its scope's share. Reused turn after
 * turn by a {@link BudgetFiller.Scratch}. Not thread-safe.
 */
final class ScopeShares {
    private final int[] share = new int[Scope.Type.values().length];
    private final int[] taken = new int[share.length];
    private boolean active;

    /** Sets the shares of a {@code budget}-token turn; none (inactive) when {@code budgets} is null. */
    void reset(ScopeBudgets budgets, int budget) {
        active = budgets != null;
        for (Scope.Type type : Scope.Type.values()) {
            share[type.ordinal()] = active ? budgets.share(type, budget) : 0;
            taken[type.ordinal()] = 0;
        }
    }

    /** Whether the turn keeps shares of its budget by scope. */
    boolean active() {
        return active;
    }

    /** Whether an item of {@code tokens} fits in what is left of its scope's share. */
    boolean fits(Scope scope, int tokens) {
        int t = scope.type().ordinal();
        return taken[t] + tokens <= share[t];
    }

    /** Counts an item of {@code tokens} against its scope's share (it may go over: pinned memories come first). */
    void take(Scope scope, int tokens) {
        taken[scope.type().ordinal()] += tokens;
    }
}
