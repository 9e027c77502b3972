package dev.memfas.core.curator;

import dev.memfas.State;
import dev.memfas.core.turn.QueryEmbedder;
import dev.memfas.core.turn.TopicFilter;
import dev.memfas.core.vector.Vectors;
import dev.memfas.internal.StopWords;
import dev.memfas.policy.RelevanceJudge;
import dev.memfas.spi.StateStore;
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
 * ones to the query: by the curator's {@link RelevanceJudge}, in the turn's one call to it ({@link RelevanceJudging}),
 * when it has one and the judge answers in time with ids it was shown; otherwise, and whenever the judge throws, is
 * late or answers with an id it was not shown, by words and meaning: a key is relevant when its name or the start of
 * its value shares a word (not a stop word) with the query, or, with an embedder and at most {@value #MOST_EMBEDDED}
 * candidates, when their cosine with the query reaches the model's relevance floor
 * ({@value TopicFilter#UNCALIBRATED_COSINE} for a model without one). The curator's own {@code memfas.} keys are
 * never candidates. Never runs for a request that asks for no state. Thread-safe.
 */
public final class StateSelection {
    /** The most keys one glob offers: a judge reads them all, and so would the model it asks. */
    static final int MOST_CANDIDATES = 200;
    /** The most candidates embedded for the default choice: one batch, a few milliseconds. */
    static final int MOST_EMBEDDED = 64;
    private static final Pattern WORD_BREAK = Pattern.compile("[^\\p{L}\\p{N}]+");
    private static final Pattern GLOB_CHARS = Pattern.compile("[*?\\[]");

    /** What one key or glob asked for found. */
    private sealed interface Found permits Chosen, Matched {}

    /** A key chosen, with its value. */
    public record Chosen(String key, String value) implements Found {}

    /**
     * What a request's keys and globs found, before choosing: each key named exactly that exists, with its value, and,
     * for each glob, the keys it matched with their values, in the order asked.
     */
    record Offer(List<Found> found) {
        static final Offer NONE = new Offer(List.of());

        /** The keys globs matched, as the relevance judge is shown them: each once, by key and start of value. */
        List<RelevanceJudge.Candidate> candidates() {
            Map<String, String> all = new LinkedHashMap<>();
            for (Found f : found) {
                if (f instanceof Matched m) {
                    m.keys().forEach(all::putIfAbsent);
                }
            }
            List<RelevanceJudge.Candidate> out = new ArrayList<>(all.size());
            all.forEach((k, v) -> out.add(new RelevanceJudge.Candidate(RelevanceJudge.Kind.STATE, k, preview(v))));
            return out;
        }
    }

    /** The keys one glob matched, with their values, in key order. */
    private record Matched(Map<String, String> keys) implements Found {}

    private final StateStore store;
    private final QueryEmbedder embedder;
    private final double threshold;

    StateSelection(StateStore store, QueryEmbedder embedder, double relevanceFloor) {
        this.store = store;
        this.embedder = embedder;
        this.threshold = relevanceFloor > -1 ? relevanceFloor : TopicFilter.UNCALIBRATED_COSINE;
    }

    /** Reads what the keys and globs asked for find; nothing is chosen yet. */
    Offer offer(String namespace, List<String> asked) {
        if (asked.isEmpty()) {
            return Offer.NONE;
        }
        List<Found> found = new ArrayList<>(asked.size());
        for (String keyOrGlob : asked) {
            if (!GLOB_CHARS.matcher(keyOrGlob).find()) {
                if (!keyOrGlob.startsWith(StateKeys.RESERVED_PREFIX)) {
                    store.loadState(namespace, keyOrGlob).ifPresent(v -> found.add(new Chosen(keyOrGlob, v)));
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
            found.add(new Matched(matched));
        }
        return new Offer(found);
    }

    /**
     * The state chosen from an offer, in the order asked: every key named exactly; of the keys a glob matched, those
     * the judge chose, or, when it gave no usable answer (null), those relevant by words and meaning.
     *
     * @param queryVector the query's unit vector, or null without an embedder
     */
    List<Chosen> choose(Offer offer, Set<String> judged, String query, float[] queryVector) {
        if (offer.found().isEmpty()) {
            return List.of(); // the request asked for no state, or none of it exists: nothing to build per turn
        }
        Map<String, String> chosen = new LinkedHashMap<>();
        for (Found f : offer.found()) {
            if (f instanceof Chosen exact) {
                chosen.putIfAbsent(exact.key(), exact.value());
                continue;
            }
            Map<String, String> matched = ((Matched) f).keys();
            List<String> relevant = judged != null ? matched.keySet().stream().filter(judged::contains).toList()
                    : byWordsAndMeaning(query, queryVector, matched);
            for (String key : relevant) {
                chosen.putIfAbsent(key, matched.get(key));
            }
        }
        List<Chosen> out = new ArrayList<>(chosen.size());
        chosen.forEach((k, v) -> out.add(new Chosen(k, v)));
        return out;
    }

    /** The keys relevant by words and meaning among those matched, in key order. */
    private List<String> byWordsAndMeaning(String query, float[] queryVector, Map<String, String> matched) {
        if (matched.isEmpty()) {
            return List.of();
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
                    && Vectors.dot(vectors.get(i), 0, queryVector, 0, queryVector.length) >= threshold;
            if (!own.isEmpty() || near) {
                out.add(key);
            }
            i++;
        }
        return out;
    }

    private static String preview(String value) {
        return value.substring(0, Math.min(value.length(), State.Entry.PREVIEW_CHARS));
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
}
