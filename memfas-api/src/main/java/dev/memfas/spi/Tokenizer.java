package dev.memfas.spi;

/**
 * Counts tokens the way the target model does, so a context can be held to a token budget.
 *
 * <p>Implementations are thread-safe and treat all text as ordinary text: special-token markers such as
 * {@code <|endoftext|>} are counted as the characters they are, never rejected.
 */
public interface Tokenizer {

    /** The number of tokens in the text. */
    int count(String text);

    /**
     * The longest prefix of the text that takes at most {@code maxTokens} tokens, never ending inside a character.
     *
     * @throws IllegalArgumentException if {@code maxTokens} is negative
     */
    String truncate(String text, int maxTokens);

    /** Names the tokenizer, e.g. {@code "cl100k_base"}; token counts cached by a store are keyed by it. */
    String id();
}
