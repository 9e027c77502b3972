package dev.memfas.core.lifecycle;

import dev.memfas.ContextRequest;
import dev.memfas.core.curator.Listeners;
import dev.memfas.core.turn.SessionRegistry;
import dev.memfas.core.turn.SessionState;
import dev.memfas.core.turn.WorkingMemory;
import dev.memfas.core.write.TriggerSuggester;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.StoredMemory;
import dev.memfas.telemetry.UsageTelemetry;
import dev.memfas.upkeep.UsageReport;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a caller says of the memories a session's context included: helpful ones count as used (in the store, or in
 * the session's working memory), and the turns that included them teach trigger suggestions ({@link TriggerSuggester});
 * unhelpful ones lose their standing in the session. Thread-safe.
 */
public final class UsageFeedback {
    private final MemoryStore store;
    private final SessionRegistry sessions;
    private final Clock clock;
    /** Where helpful turns' queries go to become trigger suggestions; null when queries are not to be kept. */
    private final TriggerSuggester suggester;
    /** Told of each report that recorded something, as usage telemetry. */
    private final Listeners listeners;

    public UsageFeedback(MemoryStore store, SessionRegistry sessions, Clock clock, TriggerSuggester suggester,
            Listeners listeners) {
        this.store = store;
        this.sessions = sessions;
        this.clock = clock;
        this.suggester = suggester;
        this.listeners = listeners;
    }

    public UsageReport report(String namespace, String sessionId, Collection<String> memoryIds, boolean helpful) {
        // The request's checks of namespace and session id are the ones a report needs.
        ContextRequest.builder("usage").namespace(namespace).sessionId(sessionId).build();
        LinkedHashSet<String> ids = new LinkedHashSet<>(memoryIds.size());
        for (String id : memoryIds) {
            ids.add(Objects.requireNonNull(id, "memory id"));
        }
        // Another namespace's session of the same id is another session: it is not found, and not named.
        SessionState session = sessions.find(namespace, sessionId);
        Set<String> known = new HashSet<>();
        for (StoredMemory s : store.getAll(namespace, ids)) {
            known.add(s.memory().id());
        }
        WorkingMemory working = session == null ? null : session.workingOrNull();
        Set<String> inWorkingMemory = new HashSet<>();
        if (working != null) {
            for (String id : ids) {
                if (!known.contains(id) && working.peek(id, clock.instant()) != null) {
                    inWorkingMemory.add(id);
                }
            }
        }
        List<String> recorded = new ArrayList<>(known.size());
        List<String> unknown = new ArrayList<>();
        for (String id : ids) {
            (known.contains(id) || inWorkingMemory.contains(id) ? recorded : unknown).add(id);
        }
        if (helpful) {
            if (!known.isEmpty()) {
                store.recordAccess(namespace, recorded.stream().filter(known::contains).toList(), clock.instant());
            }
            if (!inWorkingMemory.isEmpty()) {
                working.recordUse(inWorkingMemory, clock.instant());
            }
            if (session != null && suggester != null && !known.isEmpty()) {
                // The queries whose contexts held what helped: their words are what triggers are learned from.
                for (SessionState.RecentTurn t : session.takeTurnsIncluding(known)) {
                    suggester.record(namespace, t.queryWords(),
                            t.includedIds().stream().filter(known::contains).toList());
                }
            }
        } else if (session != null) {
            session.recordUnhelpful(recorded);
        }
        if (!recorded.isEmpty() && !listeners.isEmpty()) {
            listeners.usage(new UsageTelemetry(clock.instant(), namespace, sessionId, recorded, helpful));
        }
        return new UsageReport(recorded, unknown);
    }
}
