package dev.memfas.mcp;

import dev.memfas.Scope;

/**
 * Where the server's agent works: the project and language of {@code get_context} calls that name none, and the scope
 * of {@code memory_context} calls that name none; and the one namespace (tenant) the server serves, if it serves only
 * one. Each null when the server was not told.
 */
record WorkingContext(String project, String language, String namespace) {
    static final WorkingContext NONE = new WorkingContext(null, null, null);

    /** The project's scope, else the language's, else universal. */
    Scope scope() {
        return project != null ? Scope.project(project) : language != null ? Scope.language(language)
                : Scope.universal();
    }
}
