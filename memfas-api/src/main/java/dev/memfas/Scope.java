package dev.memfas;

import java.util.Locale;
import java.util.Objects;

/**
 * Where a memory applies: everywhere ({@link #universal()}), to one programming or natural language
 * ({@link #language(String)}), or to one project ({@link #project(String)}).
 *
 * <p>Names are compared case-insensitively and stored lower-cased. The text form is {@code universal},
 * {@code language:java} or {@code project:hydra}; {@link #parse(String)} reads it back. Immutable and thread-safe.
 *
 * @param type the kind of scope
 * @param name the language or project name, lower-cased; {@code null} exactly when {@code type} is
 *     {@link Type#UNIVERSAL}
 */
public record Scope(Type type, String name) {
    private static final Scope UNIVERSAL = new Scope(Type.UNIVERSAL, null);

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
     * @throws IllegalArgumentException if a universal scope has a name, or a name is blank, too long (over 128
     *     chars) or contains control characters
     */
    public Scope {
        Objects.requireNonNull(type, "type");
        if (type == Type.UNIVERSAL) {
            if (name != null) {
                throw new IllegalArgumentException("universal scope takes no name: '" + name + "'");
            }
        } else {
            name = Checks.identifier(Objects.requireNonNull(name, "name").strip(), "scope name", 128)
                    .toLowerCase(Locale.ROOT);
        }
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
     * Reads the text form: {@code universal}, {@code language:NAME} or {@code project:NAME}.
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
                return project(rest);
            }
        }
        throw new IllegalArgumentException(
                "scope must be 'universal', 'language:NAME' or 'project:NAME': '" + Checks.printable(text) + "'");
    }

    /** The text form that {@link #parse(String)} reads. */
    @Override
    public String toString() {
        return switch (type) {
            case UNIVERSAL -> "universal";
            case LANGUAGE -> "language:" + name;
            case PROJECT -> "project:" + name;
        };
    }
}
