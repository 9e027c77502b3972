package dev.memfas.core.turn;

import dev.memfas.ContextRequest;
import dev.memfas.core.curator.CuratorSettings;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * One {@code getContext} as it starts: the request, its namespace, the time on the curator's clock, how its budget is
 * to be filled ({@link FillPlan}), the session's state (null for a request without a session id), which memories
 * the turn may use, the recent history it is read with, and whether it is a follow-up read with that history
 * ({@link FollowUps}).
 *
 * @param history the request's recent history, oldest first; for a request without one that leans on what came
 *     before ({@link FollowUps#leansOnWhatCameBefore}), its session's latest queries
 * @param reading who the query is about: the namespace's authors it names; or, read from its history
 *     ({@link AuthorNames#readFollowingHistory}), the author named last for a query that refers to someone by a
 *     pronoun, the authors of the latest message that names any for a follow-up; and the text it is embedded as
 */
public record Turn(ContextRequest request, String namespace, Instant now, FillPlan plan, SessionState session,
        long startNanos, InForce inForce, List<String> history, boolean followUp, AuthorNames.Reading reading) {

    /**
     * Starts a turn: reads the clock, resolves the budget, finds (or opens) the session, tells a follow-up, and reads
     * who the query is about ({@link AuthorNames}).
     *
     * @param onTopic the memories on the request's filter's topic, or null ({@link TopicFilter})
     */
    public static Turn start(ContextRequest request, CuratorSettings settings, SessionRegistry sessions, Clock clock,
            Set<String> onTopic, AuthorNames authors) {
        long startNanos = System.nanoTime();
        Instant now = clock.instant();
        String namespace = request.namespace();
        SessionState session = request.sessionId() == null ? null : sessions.acquire(request.sessionId(), namespace);
        List<String> askedBefore = session == null ? List.of() : session.askedBefore(request.query());
        List<String> history = !request.recentHistory().isEmpty() ? request.recentHistory()
                : !askedBefore.isEmpty() && FollowUps.leansOnWhatCameBefore(request.query()) ? askedBefore : List.of();
        boolean followUp = FollowUps.isFollowUp(request.query(), history);
        AuthorNames.Reading reading = authors.readFollowingHistory(namespace, request.query(), history, followUp);
        FillPlan plan = FillPlan.of(request, settings, followUp ? FollowUps.searchText(request.query(), history)
                : reading.carried() ? reading.withNamed(request.query()) : request.query());
        return new Turn(request, namespace, now, plan, session, startNanos,
                new InForce(now, request.asOf(), request.includeSuperseded(), ScopeRule.of(request), request.filter(),
                        onTopic), history, followUp, reading);
    }

    /**
     * Starts the turn of a request without a query, the start of a session ({@link SessionOpening}): it is read with
     * no history, and leaves nothing in the session's latest queries for a follow-up to lean on.
     */
    public static Turn opening(ContextRequest request, CuratorSettings settings, SessionRegistry sessions,
            Clock clock, Set<String> onTopic) {
        long startNanos = System.nanoTime();
        Instant now = clock.instant();
        String namespace = request.namespace();
        SessionState session = request.sessionId() == null ? null : sessions.acquire(request.sessionId(), namespace);
        return new Turn(request, namespace, now, FillPlan.of(request, settings, ""), session, startNanos,
                new InForce(now, request.asOf(), request.includeSuperseded(), ScopeRule.of(request), request.filter(),
                        onTopic), List.of(), false, AuthorNames.Reading.asIs(""));
    }

    /** A search outside any session, as {@code recall} runs one. */
    static Turn search(ContextRequest request, Clock clock, Set<String> onTopic) {
        Instant now = clock.instant();
        return new Turn(request, request.namespace(), now,
                new FillPlan(0, null, false, 0, 0, -1, 0, 0, request.query()), null,
                System.nanoTime(), new InForce(now, request.asOf(), request.includeSuperseded(), ScopeRule.ANY,
                        request.filter(), onTopic), List.of(), false, AuthorNames.Reading.asIs(request.query()));
    }

    /** The text the turn is searched by in words: the query's, and for a follow-up its history's after them. */
    public String searchText() {
        return plan.searchText();
    }

    /** The turn's token budget. */
    public int budget() {
        return plan.budget();
    }

    public boolean hasSession() {
        return session != null;
    }
}
