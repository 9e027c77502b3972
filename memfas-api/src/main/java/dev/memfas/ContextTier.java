package dev.memfas;

import dev.memfas.internal.Checks;
import dev.memfas.spi.Tokenizer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Named sizes for a whole prompt's context, split between the memories memfas curates, the conversation's recent
 * turns and key-value state ({@link ContextRequest.Builder#tier}). A request at a tier gets the tier's memory budget;
 * the caller keeps the tier's share of recent turns ({@link #recentTurns}).
 *
 * <p>A bigger tier spends its size on the conversation, not on more memories: past about 8,000 tokens, more curated
 * memory is more of what the model must read past (recall at 4,096 tokens is already within 0.1 of everything the
 * evaluation sets hold), so even {@link #OPTIMAL} curates 8,000. Immutable.
 */
public enum ContextTier {
    /** About 8,000 tokens: memories 2,000, recent turns 4,500, state 1,500. */
    MINIMAL(2_000, 4_500, 1_500),
    /** About 15,000 tokens: memories 4,000, recent turns 8,500, state 2,500. */
    STANDARD(4_000, 8_500, 2_500),
    /** About 50,000 tokens: memories 8,000, recent turns 36,000, state 6,000. */
    OPTIMAL(8_000, 36_000, 6_000);

    private final int memoryTokens;
    private final int recentTurnTokens;
    private final int stateTokens;

    ContextTier(int memoryTokens, int recentTurnTokens, int stateTokens) {
        this.memoryTokens = memoryTokens;
        this.recentTurnTokens = recentTurnTokens;
        this.stateTokens = stateTokens;
    }

    /** The budget of the curated memories. */
    public int memoryTokens() {
        return memoryTokens;
    }

    /** The share kept for the conversation's most recent turns. */
    public int recentTurnTokens() {
        return recentTurnTokens;
    }

    /** The share kept for key-value state. */
    public int stateTokens() {
        return stateTokens;
    }

    /** The whole: memories, recent turns and state. */
    public int totalTokens() {
        return memoryTokens + recentTurnTokens + stateTokens;
    }

    /** The tier's name as the MCP tools and the command line write it: {@code minimal}, {@code standard}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The most recent turns that fit in this tier's share for them, oldest first: turns are taken from the newest back
     * until the next would not fit, so the conversation's end is never cut.
     *
     * @param turns the conversation, oldest first
     * @param tokenizer how to count, the curator's ({@code cl100k_base} by default)
     */
    public List<String> recentTurns(List<String> turns, Tokenizer tokenizer) {
        Objects.requireNonNull(turns, "turns");
        Objects.requireNonNull(tokenizer, "tokenizer");
        List<String> kept = new ArrayList<>();
        int used = 0;
        for (int i = turns.size() - 1; i >= 0; i--) {
            String turn = Objects.requireNonNull(turns.get(i), "turn");
            int tokens = tokenizer.count(turn);
            if (used + tokens > recentTurnTokens) {
                break;
            }
            kept.add(turn);
            used += tokens;
        }
        Collections.reverse(kept);
        return kept;
    }

    /**
     * Reads a tier by its name ({@code minimal}, {@code standard}, {@code optimal}), in any case.
     *
     * @throws IllegalArgumentException for anything else, naming the value
     */
    public static ContextTier parse(String text) {
        String t = Objects.requireNonNull(text, "tier").strip().toLowerCase(Locale.ROOT);
        for (ContextTier tier : values()) {
            if (tier.label().equals(t)) {
                return tier;
            }
        }
        throw new IllegalArgumentException("unknown tier '" + Checks.printable(text) + "' (minimal, standard, optimal)");
    }
}
