package dev.memfas.core.store;

import dev.memfas.State;
import dev.memfas.spi.StateStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The key-value state of an {@link InMemoryMemoryStore}: each namespace's values by key, sorted, each with the second
 * it was saved. Apart from the memories: a namespace with state only holds no memory. Thread-safe.
 */
final class InMemoryState {
    /** A value and when it was saved, to the second. */
    private record Saved(String value, Instant updatedAt) {}

    private final Map<String, Map<String, Saved>> byNamespace = new HashMap<>();

    synchronized void save(String namespace, String key, String value, Instant updatedAt) {
        Objects.requireNonNull(namespace, "namespace");
        StateStore.checkStateKey(key);
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(updatedAt, "updatedAt");
        byNamespace.computeIfAbsent(namespace, k -> new TreeMap<>())
                .put(key, new Saved(value, Instant.ofEpochSecond(updatedAt.getEpochSecond())));
    }

    synchronized Optional<String> load(String namespace, String key) {
        Objects.requireNonNull(key, "key");
        Saved s = of(namespace).get(key);
        return Optional.ofNullable(s == null ? null : s.value());
    }

    synchronized List<State.Entry> list(String namespace, boolean includePreview) {
        List<State.Entry> out = new ArrayList<>();
        of(namespace).forEach((k, s) -> out.add(State.Entry.of(k, s.updatedAt(), s.value(), includePreview)));
        return out;
    }

    synchronized Map<String, String> search(String namespace, String glob, int limit) {
        Pattern pattern = StateGlob.toRegex(Objects.requireNonNull(glob, "glob"));
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, Saved> e : of(namespace).entrySet()) {
            if (out.size() >= limit) {
                break;
            }
            if (pattern.matcher(e.getKey()).matches()) {
                out.put(e.getKey(), e.getValue().value());
            }
        }
        return out;
    }

    synchronized boolean delete(String namespace, String key) {
        Objects.requireNonNull(key, "key");
        return of(namespace).remove(key) != null;
    }

    synchronized int clear(String namespace, String exceptPrefix) {
        Map<String, Saved> values = of(namespace);
        int before = values.size();
        values.keySet().removeIf(k -> exceptPrefix == null || !k.startsWith(exceptPrefix));
        return before - values.size();
    }

    /** A namespace's values, empty and not kept when it has none. */
    private Map<String, Saved> of(String namespace) {
        Map<String, Saved> values = byNamespace.get(Objects.requireNonNull(namespace, "namespace"));
        return values != null ? values : new TreeMap<>();
    }
}
