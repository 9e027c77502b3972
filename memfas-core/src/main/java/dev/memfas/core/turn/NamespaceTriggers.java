package dev.memfas.core.turn;

import dev.memfas.ContextRequest;
import dev.memfas.spi.TriggerStore;
import dev.memfas.Trigger;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The triggers of each namespace, compiled once ({@link TriggerMatcher}) and compiled again after a change, and which
 * of them fire on a turn. Thread-safe.
 */
public final class NamespaceTriggers {
    private final TriggerStore store;
    private final ConcurrentHashMap<String, TriggerMatcher> matchers = new ConcurrentHashMap<>();

    public NamespaceTriggers(TriggerStore store) {
        this.store = store;
    }

    /**
     * The triggers that fire on the request's query, in order, and the memories they link to, in trigger order;
     * none if the request leaves triggers out.
     */
    public Fired fire(ContextRequest request) {
        if (!request.includeTriggers()) {
            return Fired.NONE;
        }
        List<Trigger> fired = matchers
                .computeIfAbsent(request.namespace(), ns -> new TriggerMatcher(store.triggers(ns)))
                .match(request.query());
        if (fired.isEmpty()) {
            return Fired.NONE;
        }
        LinkedHashSet<String> linked = new LinkedHashSet<>();
        fired.forEach(t -> linked.addAll(t.memoryIds()));
        return new Fired(fired, Collections.unmodifiableSet(linked));
    }

    /** The namespace's triggers changed: they are compiled again on next use. */
    public void changed(String namespace) {
        matchers.remove(namespace);
    }

    /** Every namespace's triggers may have changed. */
    public void changedAll() {
        matchers.clear();
    }

    /** The triggers that fired on a turn, and the ids of the memories they link to, in trigger order. */
    public record Fired(List<Trigger> triggers, Set<String> linkedIds) {
        public static final Fired NONE = new Fired(List.of(), Set.of());
    }
}
