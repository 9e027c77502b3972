package dev.memfas;

import dev.memfas.internal.Checks;
import java.util.Objects;

/**
 * A memory to remember in the layer the router picks for it ({@link ContextCurator#remember(RememberRequest)}), or in
 * the one the caller forces.
 *
 * <p>The router's rules, first match wins (each decision comes with its reason):
 * <ol>
 *   <li>a forced {@link #layer()};
 *   <li>a tag: {@code temp} → working, {@code global} → global, {@code project} → project;
 *   <li>a time to live ({@link Memory#expiresAt()} set) → working;
 *   <li>the memory's own scope, when it is not universal: a project scope → project, a language scope → global;
 *   <li>the kind: {@code scratchpad} → working; {@code convention}, {@code pattern}, {@code code_pattern},
 *       {@code preference}, {@code relationship} → global; {@code decision}, {@code bug_fix}, {@code error} →
 *       project;
 *   <li>otherwise project.
 * </ol>
 * Working memory belongs to a session: without a {@link #sessionId()}, rules 2–5 never choose it (and forcing it is an
 * error). The project layer needs a project, from the memory's own project scope or from {@link #project()}: without
 * one, a memory routed there by rules 2–6 goes to the global layer, and the reason says why.
 *
 * @param memory the memory to remember
 * @param sessionId the session whose working memory may hold it; {@code null} for none
 * @param project the project a project-layer memory is about, when its scope does not say; {@code null} for none
 * @param layer the layer to put it in whatever the rules say; {@code null} to let the router choose
 */
public record RememberRequest(Memory memory, String sessionId, String project, Layer layer) {
    /**
     * Checks the components.
     *
     * @throws NullPointerException if the memory is null
     * @throws IllegalArgumentException if the session id or project is blank or malformed, or working memory is forced
     *     without a session
     */
    public RememberRequest {
        Objects.requireNonNull(memory, "memory");
        if (sessionId != null) {
            Checks.identifier(sessionId, "session id", 256);
        }
        if (project != null) {
            project = Scope.project(project).name();
        }
        if (layer == Layer.WORKING && sessionId == null) {
            throw new IllegalArgumentException(
                    "working memory belongs to a session: give a session id to put a memory in the working layer");
        }
    }

    /** The memory, routed by the rules, with no session or project. */
    public static RememberRequest of(Memory memory) {
        return new RememberRequest(memory, null, null, null);
    }

    /** This request, with the session whose working memory may hold the memory. */
    public RememberRequest session(String sessionId) {
        return new RememberRequest(memory, Objects.requireNonNull(sessionId, "sessionId"), project, layer);
    }

    /** This request, with the project a project-layer memory is about. */
    public RememberRequest project(String project) {
        return new RememberRequest(memory, sessionId, Objects.requireNonNull(project, "project"), layer);
    }

    /** This request, with the layer forced. */
    public RememberRequest layer(Layer layer) {
        return new RememberRequest(memory, sessionId, project, Objects.requireNonNull(layer, "layer"));
    }
}
