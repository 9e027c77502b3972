package dev.memfas;

/**
 * Shares of a turn's budget kept for each kind of scope: each scope's memories first fill their own share, best
 * first; then what is left of the whole budget goes to the best of the rest, whatever their scope, so no share is
 * lost when a scope has little to say (docs/scopes.md).
 *
 * <p>The numbers are proportions of the turn's budget, written as tokens of one budget: with {@link #CERBERUS}
 * (700 / 500 / 300) a 1,500-token turn keeps 700 tokens for universal memories, 500 for its language's and 300 for its
 * project's, and a 3,000-token turn twice that. Task scopes count as their project's. Immutable.
 *
 * @param universal the share of universal memories
 * @param language the share of memories of a language
 * @param project the share of memories of a project (and its tasks)
 */
public record ScopeBudgets(int universal, int language, int project) {
    /** The split of the Cerberus design: universal 700, language 500, project 300 of 1,500 tokens. */
    public static final ScopeBudgets CERBERUS = new ScopeBudgets(700, 500, 300);

    /**
     * Checks the shares.
     *
     * @throws IllegalArgumentException if a share is negative or all are 0
     */
    public ScopeBudgets {
        if (universal < 0 || language < 0 || project < 0) {
            throw new IllegalArgumentException("scope budgets must not be negative: universal " + universal
                    + ", language " + language + ", project " + project);
        }
        if ((long) universal + language + project == 0) {
            throw new IllegalArgumentException("scope budgets must not all be 0");
        }
    }

    /** The tokens of a {@code budget}-token turn kept for memories of this scope type (rounded down). */
    public int share(Scope.Type type, int budget) {
        long total = (long) universal + language + project;
        long part = switch (type) {
            case UNIVERSAL -> universal;
            case LANGUAGE -> language;
            case PROJECT -> project;
        };
        return (int) (budget * part / total);
    }
}
