package dev.memfas.core.lifecycle;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.RecallHit;
import dev.memfas.RecallRequest;
import dev.memfas.RememberRequest;
import dev.memfas.core.text.TextAnalyzer;
import dev.memfas.core.turn.SessionRegistry;
import dev.memfas.upkeep.AgentEvent;
import dev.memfas.upkeep.EventOutcome;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What an agent event does: an error, a decision or feedback becomes a memory of its kind, in its layer (a repeat of a
 * stored one only adds evidence, by the duplicate rule); an error first looks up the most similar past errors and what
 * fixed them, and a fix reported with an error is kept on the stored error; the end of a session drops its state. Works
 * through the curator's own operations, so every rule of a write applies.
 */
public final class EventHandler {
    /** Where event memories come from. */
    static final String SOURCE = "event";
    /** The metadata key of an error's fix. */
    static final String FIX = "fix";
    /** The detail naming the project an event is about. */
    static final String PROJECT = "project";
    /** How many similar past errors are returned. */
    private static final int MOST_SIMILAR = 3;
    /** How many ranked memories are looked through for errors. */
    private static final int LOOKED_AT = 50;

    private final ContextCurator curator;
    private final SessionRegistry sessions;

    public EventHandler(ContextCurator curator, SessionRegistry sessions) {
        this.curator = curator;
        this.sessions = sessions;
    }

    public EventOutcome handle(AgentEvent e) {
        return switch (e.type()) {
            case ERROR_OCCURRED -> error(e);
            case DECISION_MADE -> new EventOutcome(remember(e, "decision"), List.of());
            case USER_FEEDBACK -> new EventOutcome(remember(e, "feedback"), List.of());
            case SESSION_END -> {
                if (e.sessionId() != null) {
                    sessions.end(e.sessionId(), e.namespace());
                }
                yield new EventOutcome(null, List.of());
            }
            case COMMAND_EXECUTED, FILE_OPENED, SESSION_START -> new EventOutcome(null, List.of());
        };
    }

    private EventOutcome error(AgentEvent e) {
        List<EventOutcome.PastError> similar = new ArrayList<>();
        Set<String> terms = new HashSet<>(TextAnalyzer.terms(e.text()));
        for (RecallHit hit : curator.recall(RecallRequest.builder(e.text()).namespace(e.namespace())
                .limit(LOOKED_AT).build())) {
            Memory m = hit.memory();
            // A ranking always has a best: a past error counts as similar only if it shares a word with this one (an
            // exception, a class, a host), so an unrelated error is not offered with its fix.
            if (m.kind().equals("error") && similar.size() < MOST_SIMILAR
                    && TextAnalyzer.terms(m.text()).stream().anyMatch(terms::contains)) {
                similar.add(new EventOutcome.PastError(m, m.metadata().get(FIX)));
            }
        }
        Memory stored = remember(e, "error");
        String fix = e.details().get(FIX);
        if (fix != null && !fix.equals(stored.metadata().get(FIX))) {
            // A repeat of a stored error is not stored again; the fix it brings belongs on the stored one.
            stored = curator.memories().update(e.namespace(), stored.id(), b -> b.metadata(FIX, fix));
        }
        return new EventOutcome(stored, similar);
    }

    /**
     * Remembers the event as a memory of {@code kind}, routed to its layer: errors and decisions to the project named
     * by the {@value #PROJECT} detail (global without one), feedback by the router's default.
     */
    private Memory remember(AgentEvent e, String kind) {
        Memory.Builder b = Memory.builder(e.text()).namespace(e.namespace()).source(SOURCE).kind(kind)
                .metadata(e.details());
        if (e.sessionId() != null) {
            b.metadata("session", e.sessionId());
        }
        RememberRequest request = RememberRequest.of(b.build());
        String project = e.details().get(PROJECT);
        if (project != null && !project.isBlank()) {
            request = request.project(project);
        }
        return curator.remember(request).memory();
    }
}
