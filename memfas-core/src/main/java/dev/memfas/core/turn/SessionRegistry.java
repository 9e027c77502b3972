package dev.memfas.core.turn;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import dev.memfas.telemetry.SessionSummary;

/**
 * The live sessions, by namespace and id: two namespaces' sessions of the same id are two sessions, and neither sees
 * or ends the other. Sessions idle longer than the timeout are expired, and past the maximum count the least
 * recently used go first, so memory use stays bounded however many session ids callers invent. Every session that
 * ends, however it ends (by the caller, idle, evicted, or when the curator closes), is summarized once
 * ({@link SessionSummary}) if it had a turn: an idle one when a later call finds it so.
 *
 * <p>Thread-safe.
 */
public final class SessionRegistry {
    private final ConcurrentMap<String, SessionState> sessions = new ConcurrentHashMap<>();
    private final Clock clock;
    private final Duration idleTimeout;
    private final int maxSessions;
    private final AtomicLong lastSweepMillis = new AtomicLong();
    private final Consumer<SessionSummary> ended;
    private final boolean redactTopics;

    /**
     * @param ended told the summary of every session that ends after a turn
     * @param redactTopics whether summaries leave the topics' labels out (they are made of the queries' words)
     */
    public SessionRegistry(Clock clock, Duration idleTimeout, int maxSessions, Consumer<SessionSummary> ended,
            boolean redactTopics) {
        this.clock = clock;
        this.idleTimeout = idleTimeout;
        this.maxSessions = maxSessions;
        this.ended = ended;
        this.redactTopics = redactTopics;
        this.lastSweepMillis.set(clock.millis());
    }

    private static String key(String namespace, String sessionId) {
        return namespace + '\u0000' + sessionId;
    }

    /** The session with this id in this namespace, created if new or expired; marks it used now. */
    public SessionState acquire(String sessionId, String namespace) {
        Instant now = clock.instant();
        sweepIfDue(now);
        SessionState[] idle = new SessionState[1];
        SessionState s = sessions.compute(key(namespace, sessionId), (k, old) -> {
            if (old == null || isExpired(old, now)) {
                idle[0] = old;
                return new SessionState(sessionId, namespace, now);
            }
            old.touch(now);
            return old;
        });
        if (idle[0] != null) {
            summarize(idle[0], SessionSummary.EndReason.TIMED_OUT);
        }
        if (sessions.size() > maxSessions) {
            evictLeastRecentlyUsed();
        }
        return s;
    }

    /** The live session with this id in this namespace, or null. */
    public SessionState find(String namespace, String sessionId) {
        SessionState s = sessions.get(key(namespace, sessionId));
        return s == null || isExpired(s, clock.instant()) ? null : s;
    }

    /** The live sessions of one namespace. */
    public List<SessionState> inNamespace(String namespace) {
        Instant now = clock.instant();
        List<SessionState> out = new ArrayList<>();
        for (SessionState s : sessions.values()) {
            if (s.namespace().equals(namespace) && !isExpired(s, now)) {
                out.add(s);
            }
        }
        return out;
    }

    /** Drops the session's state (topic, hot memories), if it is in this namespace; returns whether it was there. */
    public boolean end(String sessionId, String namespace) {
        String key = key(namespace, sessionId);
        SessionState s = sessions.get(key);
        if (s == null || !sessions.remove(key, s)) {
            return false;
        }
        summarize(s, isExpired(s, clock.instant()) ? SessionSummary.EndReason.TIMED_OUT
                : SessionSummary.EndReason.ENDED);
        return true;
    }

    /** Ends every session, as the curator closes. */
    public void endAll() {
        for (Map.Entry<String, SessionState> e : sessions.entrySet()) {
            if (sessions.remove(e.getKey(), e.getValue())) {
                summarize(e.getValue(), isExpired(e.getValue(), clock.instant())
                        ? SessionSummary.EndReason.TIMED_OUT : SessionSummary.EndReason.CLOSED);
            }
        }
    }

    private void summarize(SessionState s, SessionSummary.EndReason reason) {
        SessionSummary summary = s.summary(reason, redactTopics);
        if (summary != null) {
            ended.accept(summary);
        }
    }

    public int size() {
        sweepIfDue(clock.instant());
        return sessions.size();
    }

    private boolean isExpired(SessionState s, Instant now) {
        return Duration.between(s.lastSeen(), now).compareTo(idleTimeout) > 0;
    }

    private void sweepIfDue(Instant now) {
        long last = lastSweepMillis.get();
        long nowMillis = now.toEpochMilli();
        if (nowMillis - last < Math.max(1, idleTimeout.toMillis() / 4) || !lastSweepMillis.compareAndSet(last, nowMillis)) {
            return;
        }
        for (Map.Entry<String, SessionState> e : sessions.entrySet()) {
            if (isExpired(e.getValue(), now) && sessions.remove(e.getKey(), e.getValue())) {
                summarize(e.getValue(), SessionSummary.EndReason.TIMED_OUT);
            }
        }
    }

    private synchronized void evictLeastRecentlyUsed() {
        int excess = sessions.size() - maxSessions;
        if (excess <= 0) {
            return;
        }
        List<SessionState> all = new ArrayList<>(sessions.values());
        all.sort(Comparator.comparing(SessionState::lastSeen));
        for (int i = 0; i < excess && i < all.size(); i++) {
            if (sessions.remove(key(all.get(i).namespace(), all.get(i).id()), all.get(i))) {
                summarize(all.get(i), SessionSummary.EndReason.EVICTED);
            }
        }
    }
}
