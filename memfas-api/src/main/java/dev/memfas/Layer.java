package dev.memfas;

import java.util.Locale;
import java.util.Objects;

/**
 * The three layers of memory a context draws on. Layers are a view over what memories already say, not three stores:
 * a persistent memory is in the project layer when its scope is a {@linkplain Scope#project(String) project}, and in
 * the global layer otherwise (universal and language scopes apply across projects); a working memory is one held by a
 * session, in memory only, and never written to the store.
 *
 * <p>{@link ContextCurator#remember(RememberRequest)} routes a new memory to its layer; {@link Memories#promote}
 * moves one up.
 */
public enum Layer {
    /** Held by one session, in memory only, for a time to live; dropped when it expires or the session ends. */
    WORKING,
    /** Persistent, about one project: the memory's scope is {@code project:NAME}. */
    PROJECT,
    /** Persistent, shared across projects: a universal or language scope. */
    GLOBAL;

    /** The layer of a memory read from a store: {@link #PROJECT} for a project scope, else {@link #GLOBAL}. */
    public static Layer of(Memory stored) {
        Objects.requireNonNull(stored, "memory");
        return stored.scope().type() == Scope.Type.PROJECT ? PROJECT : GLOBAL;
    }

    /**
     * Reads a layer's name, case-insensitively: {@code working}, {@code project} or {@code global}.
     *
     * @throws IllegalArgumentException if the text names no layer
     */
    public static Layer parse(String text) {
        Objects.requireNonNull(text, "layer");
        String t = text.strip().toUpperCase(Locale.ROOT);
        for (Layer layer : values()) {
            if (layer.name().equals(t)) {
                return layer;
            }
        }
        throw new IllegalArgumentException("unknown layer '" + text + "': expected working, project or global");
    }

    /** The layer's name in lower case, as {@link #parse} reads it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
