package dev.memfas;

import dev.memfas.internal.Checks;
import java.util.Locale;
import java.util.Objects;

/**
 * Where a memory applies: everywhere ({@link #universal()}), to one programming or natural language
 * ({@link #language(String)}), to one project ({@link #project(String)}), or to one kind of task in a project
 * ({@link #task(String, String)}).
 *
 * <p>Names are compared case-insensitively and stored lower-cased. The text form is {@code universal},
 * {@code language:java}, {@code project:hydra} or {@code project:hydra:task:debugging}; {@link #parse(String)} reads
 * it back. A turn that names its project, language or task leaves out the memories of another one
 * (docs/scopes.md). Immutable and thread-safe.
 *
 * @param type the kind of scope
 * @param name the language or project name, lower-cased; {@code null} exactly when {@code type} is
 *     {@link Type#UNIVERSAL}
 * @param task the task within the project, lower-cased; {@code null} unless the scope is one task's of a project
 */
public record Scope(Type type, String name, String task) {
    private static final Scope UNIVERSAL = new Scope(Type.UNIVERSAL, null);
    private static final String TASK_SEPARATOR = ":task:";

    /** The kinds of scope. */
    public enum Type {
        /** Applies everywhere. */
        UNIVERSAL,
        /** Applies to work in one language. */
        LANGUAGE,
        /** Applies to one project. */
        PROJECT
    }

    /**
     * Validates and normalizes the components.
     *
     * @throws NullPointerException if {@code type} is null, or {@code name} is null for a named scope
     * @throws IllegalArgumentException if a universal scope has a name, a scope other than a project's has a task, or
     *     a name or task is blank, too long (over 128 chars) or contains control characters
     */
    public Scope {
        Objects.requireNonNull(type, "type");
        if (type == Type.UNIVERSAL) {
            if (name != null) {
                throw new IllegalArgumentException("universal scope takes no name: '" + Checks.printable(name) + "'");
            }
        } else {
            name = Checks.identifier(Objects.requireNonNull(name, "name").strip(), "scope name", 128)
                    .toLowerCase(Locale.ROOT);
        }
        if (task != null) {
            if (type != Type.PROJECT) {
                throw new IllegalArgumentException(
                        "only a project scope takes a task: " + type.name().toLowerCase(Locale.ROOT) + " scope with task '"
                                + Checks.printable(task) + "'");
            }
            task = Checks.identifier(task.strip(), "task", 128).toLowerCase(Locale.ROOT);
        }
    }

    /** A scope without a task: universal, a language's or a project's. */
    public Scope(Type type, String name) {
        this(type, name, null);
    }

    /** The scope of memories that apply everywhere. */
    public static Scope universal() {
        return UNIVERSAL;
    }

    /** The scope of memories about one language, e.g. {@code language("java")}. */
    public static Scope language(String language) {
        return new Scope(Type.LANGUAGE, language);
    }

    /** The scope of memories about one project, e.g. {@code project("hydra")}. */
    public static Scope project(String project) {
        return new Scope(Type.PROJECT, project);
    }

    /**
     * The scope of memories about one kind of task in one project, e.g. {@code task("hydra", "debugging")}: more
     * specific than the project's own scope.
     */
    public static Scope task(String project, String task) {
        return new Scope(Type.PROJECT, project, Objects.requireNonNull(task, "task"));
    }

    /** Whether this is one task's scope within a project. */
    public boolean hasTask() {
        return task != null;
    }

    /** This scope without its task: the project's own scope for a task scope, else this scope. */
    public Scope withoutTask() {
        return task == null ? this : new Scope(type, name);
    }

    /**
     * Reads the text form: {@code universal}, {@code language:NAME}, {@code project:NAME} or
     * {@code project:NAME:task:TASK}.
     *
     * @throws IllegalArgumentException if the text is in none of these forms
     */
    public static Scope parse(String text) {
        Objects.requireNonNull(text, "scope");
        String t = text.strip();
        if (t.equalsIgnoreCase("universal")) {
            return UNIVERSAL;
        }
        int colon = t.indexOf(':');
        if (colon > 0) {
            String prefix = t.substring(0, colon).toLowerCase(Locale.ROOT);
            String rest = t.substring(colon + 1);
            if (prefix.equals("language") || prefix.equals("lang")) {
                return language(rest);
            }
            if (prefix.equals("project")) {
                int task = rest.toLowerCase(Locale.ROOT).lastIndexOf(TASK_SEPARATOR);
                return task > 0 ? task(rest.substring(0, task), rest.substring(task + TASK_SEPARATOR.length()))
                        : project(rest);
            }
        }
        throw new IllegalArgumentException("scope must be 'universal', 'language:NAME', 'project:NAME' or"
                + " 'project:NAME:task:TASK': '" + Checks.printable(text) + "'");
    }

    /** The text form that {@link #parse(String)} reads. */
    @Override
    public String toString() {
        return switch (type) {
            case UNIVERSAL -> "universal";
            case LANGUAGE -> "language:" + name;
            case PROJECT -> task == null ? "project:" + name : "project:" + name + TASK_SEPARATOR + task;
        };
    }
}
