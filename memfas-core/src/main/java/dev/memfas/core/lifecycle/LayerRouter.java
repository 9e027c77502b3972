package dev.memfas.core.lifecycle;

import dev.memfas.Layer;
import dev.memfas.Memory;
import dev.memfas.RememberRequest;
import dev.memfas.Scope;
import java.util.Map;

/**
 * Picks the layer of a new memory, and the scope that puts it there, by the rules of {@link RememberRequest}: a forced
 * layer, a tag, a time to live, the memory's own scope, the kind, else project. The rules are the caller's words about the memory, not
 * guesses from its text, so each decision is certain and its reason names the rule. Stateless.
 */
final class LayerRouter {
    /** Kinds whose memories have a layer of their own; any other kind goes to the default. */
    static final Map<String, Layer> KINDS = Map.ofEntries(
            Map.entry("scratchpad", Layer.WORKING),
            Map.entry("convention", Layer.GLOBAL),
            Map.entry("pattern", Layer.GLOBAL),
            Map.entry("code_pattern", Layer.GLOBAL),
            Map.entry("preference", Layer.GLOBAL),
            Map.entry("relationship", Layer.GLOBAL),
            Map.entry("decision", Layer.PROJECT),
            Map.entry("bug_fix", Layer.PROJECT),
            Map.entry("error", Layer.PROJECT));

    private LayerRouter() {}

    /**
     * Where a memory goes.
     *
     * @param layer the layer
     * @param reason the rule that chose it
     * @param scope the memory's scope in that layer
     */
    record Route(Layer layer, String reason, Scope scope) {}

    static Route route(RememberRequest request) {
        Memory m = request.memory();
        boolean hasSession = request.sessionId() != null;
        if (request.layer() != null) {
            return place(request, request.layer(), "forced", true);
        }
        if (hasSession && m.tags().contains("temp")) {
            return place(request, Layer.WORKING, "tag temp", false);
        }
        if (m.tags().contains("global")) {
            return place(request, Layer.GLOBAL, "tag global", false);
        }
        if (m.tags().contains("project")) {
            return place(request, Layer.PROJECT, "tag project", false);
        }
        if (hasSession && m.expiresAt() != null) {
            return place(request, Layer.WORKING, "time to live", false);
        }
        if (m.scope().type() != Scope.Type.UNIVERSAL) {
            // The caller said where the memory applies; that outweighs what its kind suggests.
            Layer byScope = m.scope().type() == Scope.Type.PROJECT ? Layer.PROJECT : Layer.GLOBAL;
            return place(request, byScope, "scope " + m.scope(), false);
        }
        Layer byKind = KINDS.get(m.kind());
        if (byKind != null && (byKind != Layer.WORKING || hasSession)) {
            return place(request, byKind, "kind " + m.kind(), false);
        }
        return place(request, Layer.PROJECT, "default", false);
    }

    /** The route to {@code layer}, with the scope the layer needs; a project layer without a project is global. */
    private static Route place(RememberRequest request, Layer layer, String reason, boolean forced) {
        Scope scope = request.memory().scope();
        String project = scope.type() == Scope.Type.PROJECT ? scope.name() : request.project();
        return switch (layer) {
            case WORKING -> new Route(layer, reason,
                    scope.type() == Scope.Type.UNIVERSAL && project != null ? Scope.project(project) : scope);
            case GLOBAL -> new Route(layer, reason, scope.type() == Scope.Type.LANGUAGE ? scope : Scope.universal());
            case PROJECT -> {
                if (project != null) {
                    // A project scope of its own, a task's included, is kept as it is.
                    yield new Route(layer, reason, scope.type() == Scope.Type.PROJECT ? scope : Scope.project(project));
                }
                if (forced) {
                    throw new IllegalArgumentException("the project layer needs a project: give the memory a project"
                            + " scope or the request a project");
                }
                yield new Route(Layer.GLOBAL, reason + ", but no project given", place(request, Layer.GLOBAL,
                        reason, false).scope());
            }
        };
    }
}
