package dev.memfas.core;

import dev.memfas.ContextRequest;
import java.time.Clock;
import java.time.Instant;
import java.util.Set;

/**
 * One {@code getContext} as it starts: the request, its namespace, the time on the curator's clock, how its budget is
 * to be filled ({@link FillPlan}), the session's state (null for a request without a session id), which memories
 * the turn may use, and whether it is a follow-up read with its recent history ({@link FollowUps}).
 */
record Turn(ContextRequest request, String namespace, Instant now, FillPlan plan, SessionState session,
        long startNanos, InForce inForce, boolean followUp) {

    /**
     * Starts a turn: reads the clock, resolves the budget, finds (or opens) the session, and tells a follow-up.
     *
     * @param onTopic the memories on the request's filter's topic, or null ({@link TopicFilter})
     */
    static Turn start(ContextRequest request, CuratorSettings settings, SessionRegistry sessions, Clock clock,
            Set<String> onTopic) {
        long startNanos = System.nanoTime();
        Instant now = clock.instant();
        String namespace = request.namespace();
        SessionState session = request.sessionId() == null ? null : sessions.acquire(request.sessionId(), namespace);
        boolean followUp = FollowUps.isFollowUp(request);
        FillPlan plan = FillPlan.of(request, settings, followUp ? FollowUps.searchText(request) : request.query());
        return new Turn(request, namespace, now, plan, session, startNanos,
                new InForce(now, request.asOf(), request.includeSuperseded(), ScopeRule.of(request), request.filter(),
                        onTopic), followUp);
    }

    /** A search outside any session, as {@code recall} runs one. */
    static Turn search(ContextRequest request, Clock clock, Set<String> onTopic) {
        Instant now = clock.instant();
        return new Turn(request, request.namespace(), now,
                new FillPlan(0, null, false, 0, 0, -1, 0, 0, request.query()), null,
                System.nanoTime(), new InForce(now, request.asOf(), request.includeSuperseded(), ScopeRule.ANY,
                        request.filter(), onTopic), false);
    }

    /** The text the turn is searched by in words: the query's, and for a follow-up its history's after them. */
    String searchText() {
        return plan.searchText();
    }

    /** The turn's token budget. */
    int budget() {
        return plan.budget();
    }

    boolean hasSession() {
        return session != null;
    }
}
