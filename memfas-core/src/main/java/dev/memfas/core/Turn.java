package dev.memfas.core;

import dev.memfas.ContextRequest;
import dev.memfas.ScopeBudgets;
import java.time.Clock;
import java.time.Instant;

/**
 * One {@code getContext} as it starts: the request, its namespace, the time on the curator's clock, the budget in
 * force and its shares by scope (null for none), the session's state (null for a request without a session id) and
 * which memories the turn may use.
 */
record Turn(ContextRequest request, String namespace, Instant now, int budget, ScopeBudgets scopeBudgets,
        SessionState session, long startNanos, InForce inForce) {

    /** Starts a turn: reads the clock, fills in the default budget, and finds (or opens) the session. */
    static Turn start(ContextRequest request, CuratorSettings settings, SessionRegistry sessions, Clock clock) {
        long startNanos = System.nanoTime();
        Instant now = clock.instant();
        String namespace = request.namespace();
        SessionState session = request.sessionId() == null ? null : sessions.acquire(request.sessionId(), namespace);
        ScopeBudgets shares = request.scopeBudgets() != null ? request.scopeBudgets() : settings.scopeBudgets();
        return new Turn(request, namespace, now, request.tokenBudget().orElse(settings.tokenBudget()), shares, session,
                startNanos, new InForce(now, request.asOf(), request.includeSuperseded(), ScopeRule.of(request)));
    }

    /** A search outside any session, as {@code recall} runs one. */
    static Turn search(ContextRequest request, Clock clock) {
        Instant now = clock.instant();
        return new Turn(request, request.namespace(), now, 0, null, null, System.nanoTime(),
                new InForce(now, request.asOf(), request.includeSuperseded(), ScopeRule.ANY));
    }

    boolean hasSession() {
        return session != null;
    }
}
