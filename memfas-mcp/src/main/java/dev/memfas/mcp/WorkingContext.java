package dev.memfas.mcp;

import dev.memfas.Scope;

/**
 * Where the server's agent works: the project and language of {@code get_context} calls that name none, and the scope
 * of {@code memory_context} calls that name none. Both null when the server was not told.
 */
record WorkingContext(String project, String language) {
    static final WorkingContext NONE = new WorkingContext(null, null);

    /** The project's scope, else the language's, else universal. */
    Scope scope() {
        return project != null ? Scope.project(project) : language != null ? Scope.language(language)
                : Scope.universal();
    }
}
