package dev.memfas.core;

import dev.memfas.Memory;
import java.time.Instant;

/**
 * Which memories a turn may use: those not archived, not expired now and valid at the moment the turn is about, of a
 * scope the turn's {@link ScopeRule} admits. Superseded memories and those past their {@code validUntil} are left out
 * unless the request includes them; a turn about an earlier moment ({@code asOf}) also leaves out memories created
 * after it.
 *
 * @param now the time on the curator's clock; expiry is always measured from it
 * @param asOf the moment the turn is about; {@code null} for now
 * @param includeSuperseded whether memories no longer valid are used too
 * @param scopes the scopes the turn may use
 */
record InForce(Instant now, Instant asOf, boolean includeSuperseded, ScopeRule scopes) {

    /** The moment validity and recency are measured at: {@code asOf}, or now. */
    Instant at() {
        return asOf != null ? asOf : now;
    }

    boolean admits(Memory m) {
        if (m.isArchived() || m.isExpiredAt(now) || (asOf != null && m.createdAt().isAfter(asOf))
                || !scopes.admits(m.scope())) {
            return false;
        }
        Instant at = at();
        if (includeSuperseded) {
            return m.validFrom() == null || !m.validFrom().isAfter(at);
        }
        return m.isValidAt(at);
    }
}
