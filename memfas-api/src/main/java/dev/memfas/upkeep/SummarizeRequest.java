package dev.memfas.upkeep;

import dev.memfas.ContextCurator;
import dev.memfas.MemoryFilter;
import dev.memfas.internal.Checks;
import java.time.Duration;
import java.util.Objects;

/**
 * One run of {@link Upkeep#summarize}: which memories are consolidated, and how long their summaries may be.
 *
 * @param namespace the namespace
 * @param olderThan only memories dated ({@code createdAt}) at least this long before now are consolidated
 * @param filter which memories may be (pinned ones never are)
 * @param maxTokens the most tokens one summary's text may take
 * @param dryRun report the groups and their summaries, changing nothing
 */
public record SummarizeRequest(String namespace, Duration olderThan, MemoryFilter filter, int maxTokens,
        boolean dryRun) {
    /** The summary length used when none is given: a few sentences, a fifth of a 1,000-token context. */
    public static final int DEFAULT_MAX_TOKENS = 200;

    /**
     * Checks the components.
     *
     * @throws IllegalArgumentException if the namespace is malformed, {@code olderThan} is negative, or
     *     {@code maxTokens} is not in [16, 10000]
     */
    public SummarizeRequest {
        Checks.identifier(Objects.requireNonNull(namespace, "namespace"), "namespace", 128);
        Objects.requireNonNull(olderThan, "olderThan");
        Objects.requireNonNull(filter, "filter");
        if (olderThan.isNegative()) {
            throw new IllegalArgumentException("olderThan must not be negative: " + olderThan);
        }
        if (maxTokens < 16 || maxTokens > 10_000) {
            throw new IllegalArgumentException("summary maxTokens must be in [16, 10000]: " + maxTokens);
        }
    }

    /** The memories of a namespace dated at least {@code olderThan} ago, every one the filter allows. */
    public static SummarizeRequest of(String namespace, Duration olderThan) {
        return new SummarizeRequest(namespace, olderThan, MemoryFilter.all(), DEFAULT_MAX_TOKENS, false);
    }

    /** This request, for the memories the filter allows. */
    public SummarizeRequest filter(MemoryFilter filter) {
        return new SummarizeRequest(namespace, olderThan, filter, maxTokens, dryRun);
    }

    /** This request, with summaries of at most {@code maxTokens}. */
    public SummarizeRequest maxTokens(int maxTokens) {
        return new SummarizeRequest(namespace, olderThan, filter, maxTokens, dryRun);
    }

    /** This request, as a dry run. */
    public SummarizeRequest asDryRun() {
        return new SummarizeRequest(namespace, olderThan, filter, maxTokens, true);
    }
}
