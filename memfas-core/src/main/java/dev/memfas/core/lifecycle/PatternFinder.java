package dev.memfas.core.lifecycle;

import dev.memfas.Memories;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.core.text.TextAnalyzer;
import dev.memfas.core.turn.InForce;
import dev.memfas.core.turn.LatestMemories;
import dev.memfas.core.turn.ScopeRule;
import dev.memfas.core.turn.TopicLabel;
import dev.memfas.core.vector.NamespaceIndexes;
import dev.memfas.core.vector.VectorIndex;
import dev.memfas.spi.MemoryStore;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the patterns among a namespace's latest memories ({@link Memories#patterns}): groups of memories that say much
 * the same thing, each written in a different source or on a different day.
 *
 * <p>The newest {@value Memories#PATTERN_SCAN} memories in force are grouped newest first, each joining the group
 * whose first (newest) memory is most like it if it is like enough, else starting one (leader clustering: one pass,
 * at most 1,000 × 1,000 cosines, about 0.4 billion multiply-adds for 384 dimensions). Like enough, with an embedder,
 * is a cosine at least halfway between the model's relevance floor and 1 (0.79 for the default model, whose floor is
 * 0.57: a memory as close to another as the best answer to a query is to the query is related, not the same; halfway
 * to identical is the same thing said again), or 0.8 for a model without a floor; without an embedder, half their
 * distinct word stems in common (Jaccard). A group is a pattern when it has at least three memories from at least two
 * sources (a memory without a source counts its day). Labelled as a topic is ({@link TopicLabel}), from the phrases of
 * its memories, each word weighing the number of its memories that have it. Thread-safe.
 */
public final class PatternFinder {
    static final int MIN_COUNT = 3;
    static final int MIN_SOURCES = 2;
    /** Without an embedder, the share of distinct word stems two memories must have in common. */
    static final double MIN_WORDS_IN_COMMON = 0.5;
    /** With a model that states no relevance floor. */
    static final double UNCALIBRATED_SIMILARITY = 0.8;
    private static final int MAX_LIMIT = 100;
    static final int OFFERED = 3;
    static final int OFFERS_KEPT_MINUTES = 10;

    private final MemoryStore store;
    private final NamespaceIndexes indexes;
    private final double similarity;
    private final Clock clock;
    private final Cache<String, List<Memories.Pattern>> offers;

    /** @param relevanceFloor the model's relevance floor, -1 for none */
    public PatternFinder(MemoryStore store, NamespaceIndexes indexes, double relevanceFloor, Clock clock) {
        this.store = store;
        this.indexes = indexes;
        this.similarity = relevanceFloor > -1 ? (1 + relevanceFloor) / 2 : UNCALIBRATED_SIMILARITY;
        this.clock = clock;
        this.offers = Caffeine.newBuilder().maximumSize(1_000)
                .expireAfterWrite(Duration.ofMinutes(OFFERS_KEPT_MINUTES)).build();
    }

    /**
     * The namespace's most frequent patterns, for a session's start to offer their latest examples: found at most once
     * in {@value #OFFERS_KEPT_MINUTES} minutes per namespace (a pattern recurs over days; a session's start need not
     * pay for reading the memories again), the whole namespace's, at most {@value #OFFERED}.
     */
    public List<Memories.Pattern> offers(String namespace) {
        return offers.get(namespace, ns -> find(ns, null, OFFERED));
    }

    /** See {@link Memories#patterns}. */
    public List<Memories.Pattern> find(String namespace, MemoryFilter filter, int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("pattern limit must be in [1, " + MAX_LIMIT + "]: " + limit);
        }
        InForce inForce = new InForce(clock.instant(), null, false, ScopeRule.ANY, filter, null);
        List<Memory> newest = LatestMemories.read(store, namespace, filter, inForce, Memories.PATTERN_SCAN);
        List<List<Memory>> groups = group(namespace, newest);
        List<Memories.Pattern> patterns = new ArrayList<>();
        for (List<Memory> g : groups) {
            int sources = sources(g);
            if (g.size() >= MIN_COUNT && sources >= MIN_SOURCES) {
                patterns.add(new Memories.Pattern(label(g), g.size(), sources, g.get(0),
                        g.stream().map(Memory::id).toList()));
            }
        }
        // Most frequent first; among equals the one seen most recently.
        patterns.sort((a, b) -> a.count() != b.count() ? Integer.compare(b.count(), a.count())
                : LatestMemories.NEWEST_FIRST.compare(a.latest(), b.latest()));
        return List.copyOf(patterns.subList(0, Math.min(limit, patterns.size())));
    }

    /** The groups of {@code newest} (newest first), each newest first. */
    private List<List<Memory>> group(String namespace, List<Memory> newest) {
        VectorIndex index = indexes.indexFor(namespace);
        List<List<Memory>> groups = new ArrayList<>();
        if (index != null) {
            int d = index.dimension();
            float[] rows = new float[newest.size() * d];
            boolean[] present = index.gather(newest.stream().map(Memory::id).toList(), rows);
            List<Integer> leaders = new ArrayList<>();
            for (int i = 0; i < newest.size(); i++) {
                if (!present[i]) {
                    continue;
                }
                int best = -1;
                double bestCosine = similarity;
                for (int g = 0; g < leaders.size(); g++) {
                    double c = dot(rows, leaders.get(g) * d, i * d, d);
                    if (c >= bestCosine) {
                        best = g;
                        bestCosine = c;
                    }
                }
                if (best < 0) {
                    leaders.add(i);
                    groups.add(new ArrayList<>(List.of(newest.get(i))));
                } else {
                    groups.get(best).add(newest.get(i));
                }
            }
            return groups;
        }
        List<Set<String>> leaderWords = new ArrayList<>();
        for (Memory m : newest) {
            Set<String> words = new HashSet<>(TextAnalyzer.terms(m.text()));
            int best = -1;
            double bestShare = MIN_WORDS_IN_COMMON;
            for (int g = 0; g < leaderWords.size(); g++) {
                double share = jaccard(words, leaderWords.get(g));
                if (share >= bestShare) {
                    best = g;
                    bestShare = share;
                }
            }
            if (best < 0) {
                leaderWords.add(words);
                groups.add(new ArrayList<>(List.of(m)));
            } else {
                groups.get(best).add(m);
            }
        }
        return groups;
    }

    private static double dot(float[] rows, int a, int b, int d) {
        double s = 0;
        for (int k = 0; k < d; k++) {
            s += rows[a + k] * rows[b + k];
        }
        return s;
    }

    private static double jaccard(Set<String> a, Set<String> b) {
        if (a.isEmpty() || b.isEmpty()) {
            return 0;
        }
        int common = 0;
        for (String w : a) {
            if (b.contains(w)) {
                common++;
            }
        }
        return (double) common / (a.size() + b.size() - common);
    }

    /** Distinct sources; a memory without a source counts its day (UTC). */
    private static int sources(List<Memory> group) {
        Set<String> seen = new HashSet<>();
        for (Memory m : group) {
            seen.add(m.source() != null && !m.source().isEmpty() ? "source:" + m.source()
                    : "day:" + m.createdAt().atOffset(ZoneOffset.UTC).toLocalDate());
        }
        return seen.size();
    }

    private static String label(List<Memory> group) {
        Map<String, Double> weights = new LinkedHashMap<>();
        Set<String> phrases = new LinkedHashSet<>();
        for (Memory m : group) {
            for (String w : new LinkedHashSet<>(TextAnalyzer.words(m.text()))) {
                weights.merge(w, 1.0, Double::sum);
            }
            phrases.addAll(TopicLabel.phrases(m.text()));
        }
        return TopicLabel.of(weights, phrases);
    }
}
