package dev.memfas.core.turn;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The live sessions, by namespace and id: two namespaces' sessions of the same id are two sessions, and neither sees
 * or ends the other. Sessions idle longer than the timeout are expired, and past the maximum count the least
 * recently used go first, so memory use stays bounded however many session ids callers invent.
 *
 * <p>Thread-safe.
 */
public final class SessionRegistry {
    private final ConcurrentMap<String, SessionState> sessions = new ConcurrentHashMap<>();
    private final Clock clock;
    private final Duration idleTimeout;
    private final int maxSessions;
    private final AtomicLong lastSweepMillis = new AtomicLong();

    public SessionRegistry(Clock clock, Duration idleTimeout, int maxSessions) {
        this.clock = clock;
        this.idleTimeout = idleTimeout;
        this.maxSessions = maxSessions;
        this.lastSweepMillis.set(clock.millis());
    }

    private static String key(String namespace, String sessionId) {
        return namespace + '\u0000' + sessionId;
    }

    /** The session with this id in this namespace, created if new or expired; marks it used now. */
    public SessionState acquire(String sessionId, String namespace) {
        Instant now = clock.instant();
        sweepIfDue(now);
        SessionState s = sessions.compute(key(namespace, sessionId), (k, old) -> {
            if (old == null || isExpired(old, now)) {
                return new SessionState(sessionId, namespace, now);
            }
            old.touch(now);
            return old;
        });
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
        return s != null && sessions.remove(key, s);
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
        sessions.values().removeIf(s -> isExpired(s, now));
    }

    private synchronized void evictLeastRecentlyUsed() {
        int excess = sessions.size() - maxSessions;
        if (excess <= 0) {
            return;
        }
        List<SessionState> all = new ArrayList<>(sessions.values());
        all.sort(Comparator.comparing(SessionState::lastSeen));
        for (int i = 0; i < excess && i < all.size(); i++) {
            sessions.remove(key(all.get(i).namespace(), all.get(i).id()), all.get(i));
        }
    }
}
