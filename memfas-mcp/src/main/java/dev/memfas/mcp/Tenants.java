package dev.memfas.mcp;

import dev.memfas.ContextRequest;
import dev.memfas.Memory;
import java.util.List;

/**
 * The namespaces (tenants) a caller may work in, the first of them its default; or any namespace at all, for the one
 * client of a server on standard input and output that was not told to serve one.
 */
record Tenants(List<String> namespaces) {
    /** Where a request's tenants travel from the HTTP filter to the tool call, in the MCP transport context. */
    static final String CONTEXT_KEY = "memfas.tenants";
    /** Any namespace; a call that names none works in {@code default}. */
    static final Tenants ANY = new Tenants(List.of());

    /**
     * @throws IllegalArgumentException if a name is blank, too long or holds control characters, or is listed twice
     */
    Tenants {
        namespaces = List.copyOf(namespaces);
        for (String name : namespaces) {
            checked(name);
        }
        if (namespaces.stream().distinct().count() != namespaces.size()) {
            throw new IllegalArgumentException("a namespace is listed twice: " + namespaces);
        }
    }

    /** One namespace only. */
    static Tenants only(String namespace) {
        return new Tenants(List.of(namespace));
    }

    /** The namespace a call works in: the one it names, if allowed, else the default. */
    String resolve(String named) {
        if (named == null) {
            return defaultNamespace();
        }
        if (named.isBlank()) {
            throw new IllegalArgumentException("argument 'namespace' must not be blank: leave it out for "
                    + (namespaces.isEmpty() ? "the default namespace" : "'" + defaultNamespace() + "'"));
        }
        if (!namespaces.isEmpty() && !namespaces.contains(named)) {
            throw new IllegalArgumentException(namespaces.size() == 1
                    ? "this server serves the namespace '" + namespaces.get(0) + "' only, not '" + named + "'"
                    : "namespace '" + named + "' is not among those this client may use: " + namespaces);
        }
        return named;
    }

    /** The namespace of a call that names none. */
    String defaultNamespace() {
        return namespaces.isEmpty() ? Memory.DEFAULT_NAMESPACE : namespaces.get(0);
    }

    private static void checked(String name) {
        ContextRequest.builder("check").namespace(name).build();
    }
}
