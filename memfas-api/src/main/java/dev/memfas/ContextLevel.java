package dev.memfas;

import dev.memfas.internal.Checks;
import java.util.Locale;

/**
 * Named sizes for one request's context ({@link ContextRequest.Builder#level}): a budget, the lowest score a memory
 * may have to be included, and the most memories included. Smaller levels keep fewer, better memories; none changes
 * any other request or session. Minimum scores up to 0.30 leave the evaluation sets' recall unchanged at every budget
 * while general questions, which nothing stored answers, fill a little less (docs/levels-and-tiers.md).
 */
public enum ContextLevel {
    /** Level 1: 300 tokens, at most 5 memories scoring at least 0.30. */
    MINIMAL(1, 300, 0.30, 5),
    /** Level 2: 800 tokens, at most 10 memories scoring at least 0.20. */
    LEAN(2, 800, 0.20, 10),
    /** Level 3, also {@code auto}: 1,500 tokens, at most 20 memories scoring at least 0.10. */
    BALANCED(3, 1_500, 0.10, 20),
    /** Level 4: 3,000 tokens, at most 40 memories scoring at least 0.05. */
    RICH(4, 3_000, 0.05, 40),
    /** Level 5: 5,000 tokens, at most 80 memories scoring at least 0.05. */
    FULL(5, 5_000, 0.05, 80);

    private final int number;
    private final int tokens;
    private final double minScore;
    private final int maxItems;

    ContextLevel(int number, int tokens, double minScore, int maxItems) {
        this.number = number;
        this.tokens = tokens;
        this.minScore = minScore;
        this.maxItems = maxItems;
    }

    /** The level's number, 1 to 5. */
    public int number() {
        return number;
    }

    /** The token budget of a request at this level. */
    public int tokens() {
        return tokens;
    }

    /** The lowest score a memory may have to be included (pinned and trigger-linked memories excepted). */
    public double minScore() {
        return minScore;
    }

    /** The most memories the context holds. */
    public int maxItems() {
        return maxItems;
    }

    /** The level's name as the MCP tools and the command line write it: {@code minimal}, {@code lean}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Reads a level: its name ({@code minimal}, {@code lean}, {@code balanced}, {@code rich}, {@code full}), its
     * number (1 to 5) or {@code auto} (balanced), in any case.
     *
     * @throws IllegalArgumentException for anything else, naming the value
     */
    public static ContextLevel parse(String text) {
        String t = java.util.Objects.requireNonNull(text, "level").strip().toLowerCase(Locale.ROOT);
        if (t.equals("auto")) {
            return BALANCED;
        }
        for (ContextLevel level : values()) {
            if (level.label().equals(t) || String.valueOf(level.number).equals(t)) {
                return level;
            }
        }
        throw new IllegalArgumentException("unknown level '" + Checks.printable(text)
                + "' (minimal, lean, balanced, rich, full, 1 to 5, or auto)");
    }
}
