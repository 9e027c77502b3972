package dev.memfas.core;

import dev.memfas.MemoryStore;
import dev.memfas.RelevanceJudge;
import dev.memfas.StateEntry;
import dev.memfas.StopWords;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Chooses the state a turn's context holds, for a request that asks for some ({@link dev.memfas.ContextRequest#state}).
 * A key named exactly is always chosen; among the keys a glob matches (at most {@value #MOST_CANDIDATES}), the relevant
 * ones to the query: by the curator's {@link RelevanceJudge}, when it has one and the judge answers in time with ids it
 * was shown; otherwise, and whenever the judge throws, is late or answers with an id it was not shown, by words and
 * meaning: a key is relevant when its name or the start of its value shares a word (not a stop word) with the query,
 * or, with an embedder and at most {@value #MOST_EMBEDDED} candidates, when their cosine with the query reaches the
 * model's relevance floor ({@value TopicFilter#UNCALIBRATED_COSINE} for a model without one). The curator's own
 * {@code memfas.} keys are never candidates. Never runs for a request that asks for no state. Thread-safe.
 */
final class StateSelection implements AutoCloseable {
    private static final String FALLBACK = "choosing by words and meaning this turn";
    /** The most keys one glob offers: a judge reads them all, and so would the model it asks. */
    static final int MOST_CANDIDATES = 200;
    /** The most candidates embedded for the default choice: one batch, a few milliseconds. */
    static final int MOST_EMBEDDED = 64;
    private static final Pattern WORD_BREAK = Pattern.compile("[^\\p{L}\\p{N}]+");
    private static final Pattern GLOB_CHARS = Pattern.compile("[*?\\[]");

    /** A key chosen, with its value. */
    record Chosen(String key, String value) {}

    private final MemoryStore store;
    private final RelevanceJudge judge;
    private final GuardedCall judging;
    private final QueryEmbedder embedder;
    private final double threshold;

    StateSelection(MemoryStore store, RelevanceJudge judge, Duration timeout, QueryEmbedder embedder,
            double relevanceFloor) {
        this.store = store;
        this.embedder = embedder;
        this.threshold = relevanceFloor > -1 ? relevanceFloor : TopicFilter.UNCALIBRATED_COSINE;
        this.judge = judge;
        this.judging = judge == null ? null : new GuardedCall("the relevance judge", timeout);
    }

    /**
     * The state chosen for a query from the keys and globs asked for, in the order they were asked.
     *
     * @param queryVector the query's unit vector, or null without an embedder
     */
    List<Chosen> select(String namespace, String query, float[] queryVector, List<String> asked) {
        Map<String, String> chosen = new LinkedHashMap<>();
        for (String keyOrGlob : asked) {
            if (!GLOB_CHARS.matcher(keyOrGlob).find()) {
                if (!keyOrGlob.startsWith(StateKeys.RESERVED_PREFIX)) {
                    store.loadState(namespace, keyOrGlob).ifPresent(v -> chosen.putIfAbsent(keyOrGlob, v));
                }
                continue;
            }
            Map<String, String> matched = new LinkedHashMap<>();
            int limit = MOST_CANDIDATES + StateKeys.reservedCount(store, namespace);
            store.searchState(namespace, keyOrGlob, limit).forEach((k, v) -> {
                if (!k.startsWith(StateKeys.RESERVED_PREFIX) && matched.size() < MOST_CANDIDATES) {
                    matched.put(k, v);
                }
            });
            for (String key : relevant(query, queryVector, matched)) {
                chosen.putIfAbsent(key, matched.get(key));
            }
        }
        List<Chosen> out = new ArrayList<>(chosen.size());
        chosen.forEach((k, v) -> out.add(new Chosen(k, v)));
        return out;
    }

    /** The relevant keys among those matched, in key order: the judge's if it answers well, else by words. */
    private List<String> relevant(String query, float[] queryVector, Map<String, String> matched) {
        if (matched.isEmpty()) {
            return List.of();
        }
        if (judge != null) {
            List<String> judged = askJudge(query, matched);
            if (judged != null) {
                return matched.keySet().stream().filter(judged::contains).toList();
            }
        }
        Set<String> queryWords = words(query);
        List<String> texts = new ArrayList<>(matched.size());
        matched.forEach((key, value) -> texts.add(key + ": " + preview(value)));
        List<float[]> vectors = queryVector != null && texts.size() <= MOST_EMBEDDED
                ? embedder.embedTexts(texts, "state previews") : null;
        List<String> out = new ArrayList<>();
        int i = 0;
        for (String key : matched.keySet()) {
            Set<String> own = words(texts.get(i));
            own.retainAll(queryWords);
            boolean near = vectors != null
                    && dev.memfas.core.vector.Vectors.dot(vectors.get(i), 0, queryVector, 0, queryVector.length)
                            >= threshold;
            if (!own.isEmpty() || near) {
                out.add(key);
            }
            i++;
        }
        return out;
    }

    /** The judge's answer, or null if it failed, was late, or named an id it was not shown. */
    private List<String> askJudge(String query, Map<String, String> matched) {
        List<RelevanceJudge.Candidate> candidates = new ArrayList<>(matched.size());
        matched.forEach((k, v) -> candidates.add(new RelevanceJudge.Candidate(RelevanceJudge.Kind.STATE, k, preview(v))));
        List<String> ids = judging.call(() -> judge.relevant(query, List.copyOf(candidates)), FALLBACK);
        if (ids != null && !matched.keySet().containsAll(new HashSet<>(ids))) {
            judging.refused("named keys it was not shown", FALLBACK);
            return null;
        }
        return ids;
    }

    private static String preview(String value) {
        return value.substring(0, Math.min(value.length(), StateEntry.PREVIEW_CHARS));
    }

    private static Set<String> words(String text) {
        Set<String> out = new HashSet<>();
        for (String w : WORD_BREAK.split(text.toLowerCase(Locale.ROOT))) {
            if (w.length() >= 3 && !StopWords.isStopWord(w)) {
                out.add(w);
            }
        }
        return out;
    }

    @Override
    public void close() {
        if (judging != null) {
            judging.close();
        }
    }
}
