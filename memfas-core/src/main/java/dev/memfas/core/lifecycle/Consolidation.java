package dev.memfas.core.lifecycle;

import dev.memfas.MemfasException;
import dev.memfas.Memory;
import dev.memfas.core.write.MemoryIds;
import dev.memfas.core.write.MemoryWriter;
import dev.memfas.policy.Summarizer;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.StoredMemory;
import dev.memfas.spi.Tokenizer;
import dev.memfas.upkeep.SummarizeRequest;
import dev.memfas.upkeep.SummaryReport;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Consolidates old memories ({@link dev.memfas.upkeep.Upkeep#summarize}): the live memories of a namespace dated
 * before the cut-off are grouped by source and scope (one conversation, one file), each group in runs of at most
 * {@value #MOST_PER_SUMMARY} in date order, and each run of two or more becomes one summary memory, written by the
 * {@link Summarizer}, that supersedes them; the originals are archived, never deleted, and link to it. Summaries are
 * written outside the write lock; under it, a run whose memories changed meanwhile is left alone.
 */
public final class Consolidation {
    /** The kind of a summary memory; summaries are not summarized again. */
    static final String KIND = "summary";
    /** The most memories one summary stands for: beyond it, a summary of a few sentences says too little of each. */
    static final int MOST_PER_SUMMARY = 20;

    private final MemoryStore store;
    private final MemoryWriter writer;
    private final Summarizer summarizer;
    private final Tokenizer tokenizer;

    public Consolidation(MemoryStore store, MemoryWriter writer, Summarizer summarizer, Tokenizer tokenizer) {
        this.store = store;
        this.writer = writer;
        this.summarizer = summarizer;
        this.tokenizer = tokenizer;
    }

    public SummaryReport run(SummarizeRequest request, Instant now) {
        Instant cutoff = now.minus(request.olderThan());
        Map<String, List<Memory>> groups = new LinkedHashMap<>();
        int[] examined = {0};
        store.forEach(request.namespace(), request.filter().archived(false), m -> {
            if (eligible(m, cutoff, now)) {
                examined[0]++;
                groups.computeIfAbsent(m.source() + '\u0000' + m.scope(), k -> new ArrayList<>()).add(m);
            }
        });
        List<List<Memory>> runs = new ArrayList<>();
        List<Memory> summaries = new ArrayList<>();
        for (List<Memory> group : groups.values()) {
            group.sort(Comparator.comparing(Memory::createdAt).thenComparing(Memory::id));
            for (int from = 0; from + 1 < group.size(); from += MOST_PER_SUMMARY) {
                List<Memory> run = group.subList(from, Math.min(group.size(), from + MOST_PER_SUMMARY));
                if (run.size() >= 2) {
                    runs.add(run);
                    summaries.add(summary(run, request.maxTokens()));
                }
            }
        }
        if (request.dryRun()) {
            return new SummaryReport(examined[0], runs.stream().mapToInt(List::size).sum(), summaries, true);
        }
        return writer.exclusively(() -> {
            List<Memory> batch = new ArrayList<>();
            List<Memory> written = new ArrayList<>();
            int summarized = 0;
            for (int r = 0; r < runs.size(); r++) {
                List<Memory> run = runs.get(r);
                if (!unchanged(request.namespace(), run)) {
                    continue;
                }
                Memory summary = summaries.get(r);
                batch.add(summary);
                written.add(summary);
                for (Memory m : run) {
                    batch.add(m.toBuilder().archivedAt(now).supersededBy(summary.id()).build());
                }
                summarized += run.size();
            }
            List<Memory> stored = batch.isEmpty() ? List.of() : writer.rememberAll(batch, now);
            List<Memory> out = new ArrayList<>();
            for (Memory m : stored) {
                if (written.stream().anyMatch(s -> s.id().equals(m.id()))) {
                    out.add(m);
                }
            }
            return new SummaryReport(examined[0], summarized, out, false);
        });
    }

    private static boolean eligible(Memory m, Instant cutoff, Instant now) {
        return m.createdAt().isBefore(cutoff) && !m.pinned() && !m.isArchived() && !m.isSuperseded()
                && m.isValidAt(now) && !m.isExpiredAt(now) && !m.kind().equals(KIND);
    }

    /** The summary of one run, by the summarizer, checked. */
    private Memory summary(List<Memory> run, int maxTokens) {
        String text;
        try {
            text = summarizer.summarize(List.copyOf(run), maxTokens, tokenizer);
        } catch (RuntimeException e) {
            throw new MemfasException("the summarizer failed on the " + run.size() + " memories of source '"
                    + run.get(0).source() + "': " + e.getMessage(), e);
        }
        if (text == null || text.isBlank() || tokenizer.count(text) > maxTokens) {
            throw new MemfasException("the summarizer returned " + (text == null || text.isBlank() ? "no text"
                    : tokenizer.count(text) + " tokens, over the " + maxTokens + " asked") + " for the " + run.size()
                    + " memories of source '" + run.get(0).source() + "'");
        }
        Memory last = run.get(run.size() - 1);
        return Memory.builder(text).id(MemoryIds.random()).namespace(last.namespace())
                .source(last.source()).scope(last.scope()).kind(KIND).createdAt(last.createdAt())
                .supersedes(run.stream().map(Memory::id).toList())
                .metadata("summary_of", run.size() + " memories, " + run.get(0).createdAt() + " to "
                        + last.createdAt())
                .build();
    }

    /** Whether the run's memories are stored as they were read. */
    private boolean unchanged(String namespace, List<Memory> run) {
        Map<String, Memory> now = new LinkedHashMap<>();
        for (StoredMemory s : store.getAll(namespace, run.stream().map(Memory::id).toList())) {
            now.put(s.memory().id(), s.memory());
        }
        return run.stream().allMatch(m -> m.equals(now.get(m.id())));
    }
}
