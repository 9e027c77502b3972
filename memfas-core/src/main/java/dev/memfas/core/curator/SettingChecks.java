package dev.memfas.core.curator;

import java.time.Duration;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * The checks a builder's setters make at once, each failing with a message that names the setting and the value: a
 * value out of range ({@link IllegalArgumentException}), and a setting set twice ({@link IllegalStateException}). Not
 * thread-safe, as builders are not.
 */
public final class SettingChecks {
    private final Set<String> set = new HashSet<>();

    /** Throws an {@link IllegalArgumentException} saying {@code problem}, and the value, unless {@code ok}. */
    public static void require(boolean ok, String problem, Object value) {
        if (!ok) {
            throw new IllegalArgumentException(problem + ": " + value);
        }
    }

    /** Throws unless the duration is present and positive, naming the setting and the value. */
    public static void requirePositive(Duration d, String setting) {
        Objects.requireNonNull(d, setting);
        require(!d.isNegative() && !d.isZero(), setting + " must be positive", d);
    }

    /** Throws an {@link IllegalStateException} if {@code setting} was set before on this builder. */
    public void once(String setting) {
        if (!set.add(setting)) {
            throw new IllegalStateException(setting + " was already set");
        }
    }
}
