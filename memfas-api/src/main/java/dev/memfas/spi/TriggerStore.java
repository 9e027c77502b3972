package dev.memfas.spi;

import dev.memfas.Trigger;
import java.util.List;

/**
 * A store that keeps namespaces' triggers durably ({@link Trigger}: a keyword that brings memories into a turn).
 * Implemented by a {@link MemoryStore} that has a place for them; checked by
 * {@code dev.memfas.testkit.TriggerStoreContract}. Namespaces are walls; implementations are thread-safe.
 */
public interface TriggerStore {
    /** Adds a trigger, replacing one with the same keyword (compared case-insensitively) in its namespace. */
    void putTrigger(Trigger trigger);

    /** Removes the trigger with this keyword (case-insensitive) from one namespace; returns whether it existed. */
    boolean removeTrigger(String namespace, String keyword);

    /** The triggers of one namespace, in the order they were first added. */
    List<Trigger> triggers(String namespace);
}
