package dev.memfas.core.write;

import dev.memfas.Trigger;
import dev.memfas.Triggers;
import dev.memfas.spi.StateStore;
import dev.memfas.spi.TriggerStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Learns trigger suggestions from feedback (seed memfas v3's trigger learning): each turn whose included memories are
 * reported helpful leaves its query's words and those memories in the namespace's state ({@value #STATE_KEY}, the
 * last {@value #KEPT} such turns, so it survives restarts with a durable store); a word found in the queries of at
 * least {@value #MIN_QUERIES} of them becomes a suggestion, with the memories reported with it most often. Suggestions
 * are returned, never added. Thread-safe: recording holds a lock, the store does the rest.
 */
public final class TriggerSuggester {
    static final String STATE_KEY = "memfas.helpful_turns";
    /** How many helpful turns are kept: enough for words used weekly to recur, small enough to read at once. */
    static final int KEPT = 200;
    /** A word must recur this often to be suggested: twice could be one question asked again. */
    static final int MIN_QUERIES = 3;
    private static final int MOST_SUGGESTED = 20;
    private static final int MOST_LINKED = 3;
    /** Shorter words are too common to key a trigger ("go", "ui"). */
    private static final int SHORTEST_WORD = 3;

    private final StateStore store;
    private final TriggerStore triggers;

    public TriggerSuggester(StateStore store, TriggerStore triggers) {
        this.store = store;
        this.triggers = triggers;
    }

    /** Keeps one helpful turn: the words of its query and the memories reported helpful in it. */
    public synchronized void record(String namespace, Collection<String> queryWords, Collection<String> memoryIds) {
        Set<String> words = new LinkedHashSet<>();
        for (String w : queryWords) {
            if (w.length() >= SHORTEST_WORD && w.codePoints().anyMatch(Character::isLetter)) {
                words.add(w.toLowerCase(Locale.ROOT));
            }
        }
        if (words.isEmpty() || memoryIds.isEmpty()) {
            return;
        }
        List<String> lines = new ArrayList<>(turns(namespace));
        // Words have no whitespace and ids no control characters: a tab and a line break separate them safely.
        lines.add(String.join(" ", words) + '\t' + String.join("\t", memoryIds));
        if (lines.size() > KEPT) {
            lines = lines.subList(lines.size() - KEPT, lines.size());
        }
        store.saveState(namespace, STATE_KEY, String.join("\n", lines));
    }

    /** The suggestions for a namespace: recurring words that are not triggers yet, the most frequent first. */
    public List<Triggers.Suggestion> suggestions(String namespace) {
        Set<String> existing = new HashSet<>();
        for (Trigger t : triggers.triggers(namespace)) {
            existing.add(t.keyword().toLowerCase(Locale.ROOT));
        }
        Map<String, Integer> queries = new HashMap<>();
        Map<String, Map<String, Integer>> linked = new HashMap<>();
        for (String line : turns(namespace)) {
            int tab = line.indexOf('\t');
            if (tab <= 0) {
                continue;
            }
            List<String> ids = Arrays.asList(line.substring(tab + 1).split("\t"));
            for (String word : line.substring(0, tab).split(" ")) {
                if (existing.contains(word)) {
                    continue;
                }
                queries.merge(word, 1, Integer::sum);
                Map<String, Integer> byId = linked.computeIfAbsent(word, w -> new HashMap<>());
                ids.forEach(id -> byId.merge(id, 1, Integer::sum));
            }
        }
        List<Triggers.Suggestion> out = new ArrayList<>();
        queries.forEach((word, n) -> {
            if (n >= MIN_QUERIES) {
                List<String> ids = linked.get(word).entrySet().stream()
                        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed()
                                .thenComparing(Map.Entry.comparingByKey()))
                        .limit(MOST_LINKED).map(Map.Entry::getKey).toList();
                out.add(new Triggers.Suggestion(word, n, ids));
            }
        });
        out.sort(Comparator.comparingInt(Triggers.Suggestion::queries).reversed()
                .thenComparing(Triggers.Suggestion::keyword));
        return out.size() > MOST_SUGGESTED ? List.copyOf(out.subList(0, MOST_SUGGESTED)) : List.copyOf(out);
    }

    private List<String> turns(String namespace) {
        return store.loadState(namespace, STATE_KEY).filter(s -> !s.isEmpty())
                .map(s -> Arrays.asList(s.split("\n"))).orElse(List.of());
    }
}
