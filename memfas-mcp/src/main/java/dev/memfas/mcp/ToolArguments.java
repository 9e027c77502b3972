package dev.memfas.mcp;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The arguments of one tool call, read leniently the way models send them: numbers and booleans may come as strings
 * ({@code "2000"}, {@code "true"}), a list may come as one comma-separated string. Anything else that does not fit
 * fails with an {@link IllegalArgumentException} naming the argument and the value.
 */
final class ToolArguments {
    private static final int MAX_SHOWN = 60;

    private final Map<String, Object> values;
    private final Tenants tenants;
    private final String client;

    ToolArguments(String tool, Map<String, Object> values, Set<String> known) {
        this(tool, values, known, Tenants.ANY, null);
    }

    /**
     * @param tenants the namespaces the caller may work in
     * @param client the MCP session of the client calling, when one server serves several clients (over HTTP); the
     *     sessions it names are its own, out of other clients' reach. Null when the server has one client (stdio).
     */
    ToolArguments(String tool, Map<String, Object> values, Set<String> known, Tenants tenants, String client) {
        this.tenants = tenants;
        this.client = client;
        this.values = values == null ? Map.of() : values;
        for (String name : this.values.keySet()) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException("unknown argument '" + name + "' (" + tool + " takes "
                        + String.join(", ", known.stream().sorted().toList()) + ")");
            }
        }
    }

    /**
     * The namespace the call works in: the one it names, if the caller may use it (else refused), or the caller's
     * default.
     *
     * @throws IllegalArgumentException if the call names a blank namespace or one the caller may not use
     */
    String namespace() {
        return tenants.resolve(optionalString("namespace"));
    }

    /**
     * The memfas session the call names in {@code session_id}, as the curator knows it: the name itself when the server
     * has one client, else the name within this client's own sessions, so that two clients naming the same session
     * never share its topic, working memory or budget. Null when the call names none.
     */
    String session() {
        String given = optionalString("session_id");
        return given == null || given.isBlank() ? null : qualified(given);
    }

    /** Like {@link #session()}, for tools that need one. */
    String requiredSession() {
        return qualified(requiredString("session_id"));
    }

    /** The session as the call named it, to say back to the client; null when it names none. */
    String sessionAsNamed() {
        String given = optionalString("session_id");
        return given == null || given.isBlank() ? null : given;
    }

    /** The client's own key for what it sets without naming a session (its default budget); null with one client. */
    String clientDefaultsKey() {
        return client == null ? null : client + "/";
    }

    private String qualified(String session) {
        return client == null ? session : client + "/" + session;
    }

    String requiredString(String name) {
        String value = optionalString(name);
        if (value == null) {
            throw new IllegalArgumentException("missing required argument '" + name + "'");
        }
        if (value.isBlank()) {
            throw new IllegalArgumentException("argument '" + name + "' must not be blank");
        }
        return value;
    }

    String optionalString(String name) {
        Object v = values.get(name);
        if (v == null) {
            return null;
        }
        if (v instanceof String s) {
            return s;
        }
        if (v instanceof Number || v instanceof Boolean) {
            return v.toString();
        }
        throw wrongType(name, "a string", v);
    }

    Integer optionalInt(String name, int min, int max) {
        Object v = values.get(name);
        if (v == null || (v instanceof String s && s.isBlank())) {
            return null;
        }
        long value;
        if (v instanceof Number n) {
            double d = n.doubleValue();
            if (d != Math.rint(d) || Double.isInfinite(d)) {
                throw wrongType(name, "a whole number", v);
            }
            value = n.longValue();
        } else if (v instanceof String s) {
            try {
                value = Long.parseLong(s.strip());
            } catch (NumberFormatException e) {
                throw wrongType(name, "a whole number", v);
            }
        } else {
            throw wrongType(name, "a whole number", v);
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    "argument '" + name + "' must be in [" + min + ", " + max + "]: " + value);
        }
        return (int) value;
    }

    Boolean optionalBoolean(String name) {
        Object v = values.get(name);
        if (v == null) {
            return null;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof String s) {
            switch (s.strip().toLowerCase(Locale.ROOT)) {
                case "true", "yes", "1" -> {
                    return true;
                }
                case "false", "no", "0" -> {
                    return false;
                }
                default -> throw wrongType(name, "true or false", v);
            }
        }
        if (v instanceof Number n && (n.doubleValue() == 0 || n.doubleValue() == 1)) {
            return n.doubleValue() == 1;
        }
        throw wrongType(name, "true or false", v);
    }

    /** A list of strings; a single string is split at commas. Blank entries are dropped. */
    List<String> optionalStringList(String name) {
        Object v = values.get(name);
        if (v == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        if (v instanceof String s) {
            String t = s.strip();
            if (t.startsWith("[") && t.endsWith("]")) {
                t = t.substring(1, t.length() - 1);
            }
            for (String part : t.split(",")) {
                String p = part.strip();
                if (p.length() >= 2 && p.startsWith("\"") && p.endsWith("\"")) {
                    p = p.substring(1, p.length() - 1);
                }
                if (!p.isBlank()) {
                    out.add(p);
                }
            }
            return out;
        }
        if (v instanceof List<?> list) {
            for (Object item : list) {
                if (!(item instanceof String s)) {
                    throw wrongType(name, "a list of strings", v);
                }
                if (!s.isBlank()) {
                    out.add(s.strip());
                }
            }
            return out;
        }
        throw wrongType(name, "a list of strings", v);
    }

    /** A list of objects, each as a map of its fields; required, not empty. */
    List<Map<String, Object>> requiredObjectList(String name) {
        Object v = values.get(name);
        if (v == null) {
            throw new IllegalArgumentException("missing required argument '" + name + "'");
        }
        if (!(v instanceof List<?> list) || list.isEmpty()) {
            throw wrongType(name, "a list of objects, not empty", v);
        }
        List<Map<String, Object>> out = new java.util.ArrayList<>(list.size());
        for (Object o : list) {
            if (!(o instanceof Map<?, ?> m)) {
                throw wrongType(name, "a list of objects", o);
            }
            Map<String, Object> fields = new java.util.LinkedHashMap<>();
            m.forEach((k, x) -> fields.put(String.valueOf(k), x));
            out.add(fields);
        }
        return out;
    }

    /** An ISO-8601 instant ({@code 2026-11-24T09:30:00Z}) or a day ({@code 2026-11-24}, its start in UTC). */
    java.time.Instant optionalInstant(String name) {
        String s = optionalString(name);
        if (s == null || s.isBlank()) {
            return null;
        }
        try {
            return java.time.OffsetDateTime.parse(s.strip()).toInstant();
        } catch (java.time.format.DateTimeParseException notAnInstant) {
            try {
                return java.time.LocalDate.parse(s.strip()).atStartOfDay(java.time.ZoneOffset.UTC).toInstant();
            } catch (java.time.format.DateTimeParseException e) {
                throw wrongType(name, "an ISO-8601 date-time or YYYY-MM-DD", s);
            }
        }
    }

    private IllegalArgumentException wrongType(String name, String expected, Object value) {
        String shown = String.valueOf(value);
        if (shown.length() > MAX_SHOWN) {
            shown = shown.substring(0, MAX_SHOWN) + "…";
        }
        String quoted = value instanceof String ? "'" + shown + "'" : shown;
        return new IllegalArgumentException("argument '" + name + "' must be " + expected + ": " + quoted);
    }
}
