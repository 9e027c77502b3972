package dev.memfas.internal;

import java.util.Objects;

/**
 * Argument checks shared by the value types of every API package; messages name the argument and its value. Not
 * exported from the module: no contract, for memfas's API types only.
 */
public final class Checks {
    private Checks() {}

    public static String nonBlank(String value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank: '" + value + "'");
        }
        return value;
    }

    /** A short identifier: not blank, at most {@code maxLength} chars, no control characters. */
    public static String identifier(String value, String name, int maxLength) {
        nonBlank(value, name);
        if (value.length() > maxLength) {
            throw new IllegalArgumentException(
                    name + " must be at most " + maxLength + " chars: " + value.length() + " chars '"
                            + value.substring(0, 40) + "...'");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c)) {
                throw new IllegalArgumentException(
                        name + " must not contain control characters: '" + printable(value) + "'");
            }
            if (Character.isSurrogate(c)) {
                boolean paired = Character.isHighSurrogate(c) && i + 1 < value.length()
                        && Character.isLowSurrogate(value.charAt(i + 1));
                if (!paired) {
                    throw new IllegalArgumentException(
                            name + " must not contain a lone surrogate (index " + i + "): '" + printable(value) + "'");
                }
                i++;
            }
        }
        return value;
    }

    /** A query: not blank (the message shows it, control characters escaped), at most {@code maxChars} chars. */
    public static String query(String query, int maxChars) {
        Objects.requireNonNull(query, "query");
        if (query.isBlank()) {
            throw new IllegalArgumentException("query must not be blank: '" + printable(query) + "'");
        }
        if (query.length() > maxChars) {
            throw new IllegalArgumentException(
                    "query is too long: " + query.length() + " chars (at most " + maxChars + ")");
        }
        return query;
    }

    public static String textWithin(String value, String name, int maxChars) {
        nonBlank(value, name);
        if (value.length() > maxChars) {
            throw new IllegalArgumentException(
                    name + " is too long: " + value.length() + " chars (at most " + maxChars + ")");
        }
        return value;
    }

    public static String printable(String value) {
        StringBuilder sb = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c) || Character.isSurrogate(c)) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
