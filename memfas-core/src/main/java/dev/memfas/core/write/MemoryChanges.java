package dev.memfas.core.write;

import dev.memfas.Memories;
import dev.memfas.Memory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What differs between two states of a memory, component by component: read from {@link Memory}'s record components,
 * so a component added to it is compared without a change here. {@code updatedAt} says when, not what, and is left out.
 */
final class MemoryChanges {
    private static final RecordComponent[] COMPARED = java.util.Arrays.stream(Memory.class.getRecordComponents())
            .filter(c -> !c.getName().equals("updatedAt")).toArray(RecordComponent[]::new);

    private MemoryChanges() {}

    /** The names of the components that differ, in declaration order. */
    static List<String> between(Memory before, Memory after) {
        List<String> changed = new ArrayList<>();
        for (RecordComponent c : COMPARED) {
            if (!Objects.equals(value(c, before), value(c, after))) {
                changed.add(c.getName());
            }
        }
        return changed;
    }

    /** Whether the two differ in nothing but {@code updatedAt}. */
    static boolean same(Memory a, Memory b) {
        return a.toBuilder().updatedAt(b.updatedAt()).build().equals(b);
    }

    /** The states, oldest first, numbered from 1, each with what changed from the one before. */
    static List<Memories.Version> versions(List<Memory> states) {
        List<Memories.Version> out = new ArrayList<>(states.size());
        for (int i = 0; i < states.size(); i++) {
            out.add(new Memories.Version(i + 1, states.get(i),
                    i == 0 ? List.of() : between(states.get(i - 1), states.get(i))));
        }
        return out;
    }

    private static Object value(RecordComponent c, Memory m) {
        try {
            return c.getAccessor().invoke(m);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read " + c.getName() + " of a memory", e);
        }
    }
}
