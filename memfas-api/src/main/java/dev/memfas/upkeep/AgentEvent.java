package dev.memfas.upkeep;

import dev.memfas.ContextCurator;
import dev.memfas.Layer;
import dev.memfas.Memory;
import dev.memfas.internal.Checks;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Something that happened in an agent's work, reported with {@link Upkeep#reportEvent}: decisions and errors
 * become memories, an error also brings back similar past errors and what fixed them, and the end of a session ends
 * its state.
 *
 * @param type what happened
 * @param namespace the namespace it belongs to
 * @param sessionId the session it happened in; {@code null} when none
 * @param text what happened, in words (the error message, the decision, the feedback, the command, the file)
 * @param details free-form pairs; for an error, {@code fix} says how it was fixed, when that is known; {@code project}
 *     names the project an error or decision is about, which puts it in that project's layer (without one it is
 *     global; see {@link Layer})
 */
public record AgentEvent(Type type, String namespace, String sessionId, String text, Map<String, String> details) {

    /** What happened. */
    public enum Type {
        /** An error: remembered as kind {@code error}, and similar past errors are returned. */
        ERROR_OCCURRED,
        /** A decision: remembered as kind {@code decision}. */
        DECISION_MADE,
        /** Feedback from the user: remembered as kind {@code feedback}. */
        USER_FEEDBACK,
        /** A command ran: not remembered (too frequent to be worth a memory each). */
        COMMAND_EXECUTED,
        /** A file was opened: not remembered. */
        FILE_OPENED,
        /** A session started: not remembered. */
        SESSION_START,
        /** A session ended: its state (topic, hot memories) is dropped; not remembered. */
        SESSION_END
    }

    /**
     * Checks the components.
     *
     * @throws IllegalArgumentException if the namespace or session id is malformed, or the text is blank or longer
     *     than {@link Memory#MAX_TEXT_CHARS}
     */
    public AgentEvent {
        Objects.requireNonNull(type, "type");
        Checks.identifier(Objects.requireNonNull(namespace, "namespace"), "namespace", 128);
        if (sessionId != null) {
            Checks.identifier(sessionId, "session id", 256);
        }
        Checks.textWithin(Objects.requireNonNull(text, "text"), "event text", Memory.MAX_TEXT_CHARS);
        Map<String, String> copy = new LinkedHashMap<>();
        Objects.requireNonNull(details, "details").forEach((k, v) -> {
            Checks.identifier(Objects.requireNonNull(k, "detail key"), "detail key", 256);
            copy.put(k, Objects.requireNonNull(v, () -> "detail value of '" + k + "'"));
        });
        details = Map.copyOf(copy);
    }

    /** An event in the default namespace, with no session and no details. */
    public static AgentEvent of(Type type, String text) {
        return new AgentEvent(type, Memory.DEFAULT_NAMESPACE, null, text, Map.of());
    }
}
