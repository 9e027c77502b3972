package dev.memfas.core.turn;

import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import java.time.Instant;
import java.util.Set;

/**
 * Which memories a turn may use: those not archived, not expired now and valid at the moment the turn is about, of a
 * scope the turn's {@link ScopeRule} admits, and that the request's filter, if any, lets through. Superseded memories and those past their {@code validUntil} are left out
 * unless the request includes them; a turn about an earlier moment ({@code asOf}) also leaves out memories created
 * after it.
 *
 * @param now the time on the curator's clock; expiry is always measured from it
 * @param asOf the moment the turn is about; {@code null} for now
 * @param includeSuperseded whether memories no longer valid are used too
 * @param scopes the scopes the turn may use
 * @param filter the request's filter, or null ({@link MemoryFilter#test}; its topic is {@code onTopic})
 * @param onTopic the ids of the memories on the filter's topic, or null when it has none ({@link TopicFilter})
 */
public record InForce(Instant now, Instant asOf, boolean includeSuperseded, ScopeRule scopes, MemoryFilter filter,
        Set<String> onTopic) {

    /** No filter. */
    public InForce(Instant now, Instant asOf, boolean includeSuperseded, ScopeRule scopes) {
        this(now, asOf, includeSuperseded, scopes, null, null);
    }

    /** The moment validity and recency are measured at: {@code asOf}, or now. */
    public Instant at() {
        return asOf != null ? asOf : now;
    }

    public boolean admits(Memory m) {
        if (m.isArchived() || m.isExpiredAt(now) || (asOf != null && m.createdAt().isAfter(asOf))
                || !scopes.admits(m.scope()) || (filter != null && !filter.test(m))
                || (onTopic != null && !onTopic.contains(m.id()))) {
            return false;
        }
        Instant at = at();
        if (includeSuperseded) {
            return m.validFrom() == null || !m.validFrom().isAfter(at);
        }
        return m.isValidAt(at);
    }
}
