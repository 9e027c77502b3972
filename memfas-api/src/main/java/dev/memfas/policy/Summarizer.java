package dev.memfas.policy;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.spi.Tokenizer;
import java.util.List;

/**
 * Writes the text of a summary memory from the memories it consolidates ({@link dev.memfas.upkeep.Upkeep#summarize}).
 * memfas's own is extractive and deterministic (the group's most informative sentences, in their order); a model-backed
 * one plugs in here ({@code Memfas.newBuilder().summarizer(...)}). Called outside any lock, once per group; it should
 * not call back into the curator.
 */
@FunctionalInterface
public interface Summarizer {
    /**
     * The summary's text.
     *
     * @param memories the memories of one group, oldest first (at least two)
     * @param maxTokens the most tokens the text may take, as {@code tokenizer} counts them
     * @param tokenizer the curator's tokenizer
     * @return the text; not blank, within {@code maxTokens}
     */
    String summarize(List<Memory> memories, int maxTokens, Tokenizer tokenizer);
}
