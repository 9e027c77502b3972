package dev.memfas.core.envelope;

import dev.memfas.Memory;
import java.util.Set;

/**
 * The kinds of memory that hold standing guidance rather than record an event: {@code preference}, {@code rule},
 * {@code correction}, {@code decision} and {@code anti_pattern}. Saying one again, at any moment, is the same guidance
 * said once more: its evidence count, the frequency that feeds the {@code frequency} factor, rises and no second
 * memory is stored (where the same words said at two moments are two events for any other kind). An anti-pattern is
 * shown as "Avoid: …".
 */
public final class Kinds {
    static final String ANTI_PATTERN = "anti_pattern";
    private static final Set<String> GUIDANCE = Set.of("preference", "rule", "correction", "decision", ANTI_PATTERN);
    /** What an anti-pattern's item begins with, unless its text already says so. */
    static final String AVOID = "Avoid: ";

    private Kinds() {}

    /** Whether memories of this kind are standing guidance, the same whenever they are said. */
    public static boolean isGuidance(String kind) {
        return GUIDANCE.contains(kind);
    }

    /** Whether the memory's item begins with {@link #AVOID}: an anti-pattern whose text does not begin so already. */
    static boolean saysAvoid(Memory m) {
        return m.kind().equals(ANTI_PATTERN) && !m.text().regionMatches(true, 0, "avoid", 0, 5);
    }
}
