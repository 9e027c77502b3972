package dev.memfas.policy;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.spi.StoredMemory;
import java.time.Duration;
import java.util.Objects;

/**
 * How long unused memories are kept in use before maintenance archives them ({@link
 * dev.memfas.upkeep.Upkeep#maintain}).
 *
 * <p>A memory's retention, in [0, 1], is the larger of how fresh it is and how recently it was used:
 *
 * <pre>
 * fresh     = 0.5 ^ (age / ageHalfLife)                      age since createdAt
 * recentUse = 0.5 ^ (idle / idleHalfLife) * (0.5 + 0.5 * use) idle since the last access; 0 if never accessed
 * use       = 1 - e ^ -((accessCount + evidenceCount - 1) / 3)
 * retention = min(1, max(fresh, recentUse) * (0.5 + importance))
 * </pre>
 *
 * <p>Use counts only while it is recent: one access long ago does not keep a memory forever, as it would if use were
 * added on its own. Importance scales it (0.5, the default, leaves it as is; 1 adds half). Pinned memories are exempt.
 * A memory whose retention falls below {@link #archiveBelow()} is archived: with the defaults, a memory never used is
 * archived after about ten months (3.3 half-lives of 90 days), and one used regularly stays.
 *
 * @param ageHalfLife the age at which a memory's freshness halves; positive
 * @param idleHalfLife the time without use after which recent use counts half; positive
 * @param archiveBelow the retention under which maintenance archives a memory, in [0, 1); 0 archives nothing
 */
public record RetentionPolicy(Duration ageHalfLife, Duration idleHalfLife, double archiveBelow) {
    private static final RetentionPolicy DEFAULTS = new RetentionPolicy(Duration.ofDays(90), Duration.ofDays(30),
            0.1);

    /**
     * Checks the components.
     *
     * @throws IllegalArgumentException if a half-life is not positive or the threshold is not in [0, 1)
     */
    public RetentionPolicy {
        for (Duration d : new Duration[] {Objects.requireNonNull(ageHalfLife, "ageHalfLife"),
                Objects.requireNonNull(idleHalfLife, "idleHalfLife")}) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("a retention half-life must be positive: " + d);
            }
        }
        if (!(archiveBelow >= 0 && archiveBelow < 1)) {
            throw new IllegalArgumentException("archiveBelow must be in [0, 1): " + archiveBelow);
        }
    }

    /** Half-lives of 90 days (age) and 30 days (idle), archiving below 0.1. */
    public static RetentionPolicy defaults() {
        return DEFAULTS;
    }

    /** The retention of a stored memory at the given time, as the class comment defines it; 1 for a pinned one. */
    public double retention(StoredMemory stored, java.time.Instant now) {
        Memory m = stored.memory();
        if (m.pinned()) {
            return 1;
        }
        double fresh = halfLives(Duration.between(m.createdAt(), now), ageHalfLife);
        double recentUse = 0;
        if (stored.lastAccessedAt() != null) {
            double use = 1 - Math.exp(-(stored.accessCount() + stored.evidenceCount() - 1) / 3.0);
            recentUse = halfLives(Duration.between(stored.lastAccessedAt(), now), idleHalfLife) * (0.5 + 0.5 * use);
        }
        return Math.min(1, Math.max(fresh, recentUse) * (0.5 + m.importance()));
    }

    /** 0.5 to the power of {@code elapsed / halfLife}; 1 for a time in the future. */
    private static double halfLives(Duration elapsed, Duration halfLife) {
        if (elapsed.isNegative()) {
            return 1;
        }
        return Math.pow(0.5, elapsed.toMillis() / (double) halfLife.toMillis());
    }
}
