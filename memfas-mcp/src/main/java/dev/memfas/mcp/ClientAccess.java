package dev.memfas.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.net.URI;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may call the HTTP server, and in which namespaces.
 *
 * <ul>
 *   <li>A server on loopback answers only requests whose {@code Host} names this machine's loopback at the port served,
 *       and whose {@code Origin}, if any, does too: a web page of another site, even one whose name was made to point
 *       at 127.0.0.1 (DNS rebinding), is refused with 403. A server bound elsewhere needs tokens, which a page does not
 *       have; there an {@code Origin} must be the server's own.
 *   <li>Without tokens every client works in the one namespace served. With tokens, a request without one, or with an
 *       unknown one, is refused with 401; a known one brings its namespaces, which the tool calls are held to.
 *   <li>An MCP session belongs to the token that opened it: another token naming it is told it does not exist.
 * </ul>
 *
 * Every refusal is a JSON-RPC error object, logged without the token.
 */
final class ClientAccess implements Filter {
    private static final Logger LOG = LoggerFactory.getLogger(ClientAccess.class);
    private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "[::1]");
    private static final String BEARER = "Bearer ";
    private static final String SESSION_HEADER = "Mcp-Session-Id";
    /** Sessions remembered at most: the oldest owner is forgotten first, and its session then opens to no one else. */
    private static final int MAX_SESSIONS = 100_000;

    private final McpJsonMapper json;
    /** The tokens accepted, or null when the server takes none. */
    private final AccessTokens tokens;
    /** The namespaces of a client when the server takes no token. */
    private final Tenants open;
    /** {@code host:port} values a request's Host and Origin may name, lower case; empty when not checked. */
    private final Set<String> hosts;
    /** The owner (token digest) of each MCP session opened. */
    private final Map<String, String> sessionOwners = Collections.synchronizedMap(
            new LinkedHashMap<>(16, 0.75f, false) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
                    return size() > MAX_SESSIONS;
                }
            });

    /**
     * @param tokens the tokens accepted, or null for none
     * @param open the namespaces of every client when no token is taken
     * @param boundHost the address served; the Host of requests is checked when it is a loopback address
     * @param loopback whether the address served is a loopback address
     * @param port the port served
     */
    ClientAccess(McpJsonMapper json, AccessTokens tokens, Tenants open, String boundHost, boolean loopback, int port) {
        this.json = json;
        this.tokens = tokens;
        this.open = open;
        Set<String> names = new HashSet<>();
        if (loopback) {
            names.addAll(LOOPBACK_NAMES);
            names.add(boundHost.contains(":") && !boundHost.startsWith("[") ? "[" + boundHost + "]" : boundHost);
        }
        Set<String> allowed = new HashSet<>();
        for (String name : names) {
            allowed.add(name.toLowerCase(Locale.ROOT) + ":" + port);
            if (port == 80) {
                allowed.add(name.toLowerCase(Locale.ROOT));
            }
        }
        this.hosts = Set.copyOf(allowed);
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        String host = request.getHeader("Host");
        if (!hosts.isEmpty() && (host == null || !hosts.contains(host.trim().toLowerCase(Locale.ROOT)))) {
            refuse(request, response, HttpServletResponse.SC_FORBIDDEN, "this server answers requests to "
                    + "its loopback address only (Host " + printable(String.valueOf(host)) + ")");
            return;
        }
        String origin = request.getHeader("Origin");
        if (origin != null && !originAllowed(origin, host)) {
            refuse(request, response, HttpServletResponse.SC_FORBIDDEN, "requests from web pages of other sites are"
                    + " not served (Origin " + printable(origin) + ")");
            return;
        }
        String owner = "";
        Tenants tenants = open;
        if (tokens != null) {
            String authorization = request.getHeader("Authorization");
            if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
                refuse(request, response, HttpServletResponse.SC_UNAUTHORIZED, "no bearer token");
                return;
            }
            owner = AccessTokens.keyOf(authorization.substring(BEARER.length()).trim());
            tenants = tokens.lookUp(owner);
            if (tenants == null) {
                refuse(request, response, HttpServletResponse.SC_UNAUTHORIZED, "wrong bearer token");
                return;
            }
        }
        String session = request.getHeader(SESSION_HEADER);
        if (session != null) {
            String opener = sessionOwners.get(session);
            if (opener != null && !opener.equals(owner)) {
                // Told apart from an unknown session by nothing: the id of another's session is no key to it.
                refuse(request, response, HttpServletResponse.SC_NOT_FOUND, "session not found");
                return;
            }
        }
        request.setAttribute(Tenants.CONTEXT_KEY, tenants);
        String sessionOwner = owner;
        chain.doFilter(request, new HttpServletResponseWrapper(response) {
            @Override
            public void setHeader(String name, String value) {
                bind(name, value);
                super.setHeader(name, value);
            }

            @Override
            public void addHeader(String name, String value) {
                bind(name, value);
                super.addHeader(name, value);
            }

            private void bind(String name, String value) {
                if (SESSION_HEADER.equalsIgnoreCase(name) && value != null) {
                    sessionOwners.putIfAbsent(value, sessionOwner);
                }
            }
        });
        if (session != null && "DELETE".equals(request.getMethod()) && response.getStatus() < 300) {
            sessionOwners.remove(session);
        }
    }

    private boolean originAllowed(String origin, String host) {
        URI uri;
        try {
            uri = URI.create(origin.trim());
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (uri.getHost() == null || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
            return false;
        }
        int port = uri.getPort() != -1 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
        String hostPort = (uri.getHost() + ":" + port).toLowerCase(Locale.ROOT);
        if (!hosts.isEmpty()) {
            return hosts.contains(hostPort);
        }
        // Bound elsewhere: only the server's own origin, as the request names it.
        String named = host == null ? "" : host.trim().toLowerCase(Locale.ROOT);
        return hostPort.equals(named.contains(":") && !named.endsWith("]") ? named : named + ":" + port);
    }

    private void refuse(HttpServletRequest request, HttpServletResponse response, int status, String why)
            throws IOException {
        LOG.warn("refused a request from {} ({} {}): {}", request.getRemoteAddr(), request.getMethod(),
                printable(request.getRequestURI()), why);
        if (status == HttpServletResponse.SC_UNAUTHORIZED) {
            response.setHeader("WWW-Authenticate", "Bearer realm=\"memfas\"");
        }
        JsonRpcGate.writeError(response, json, status, -32001, why);
    }

    /** At most 100 characters, without control characters, for a log line a caller's header cannot forge. */
    private static String printable(String s) {
        String cut = s.length() > 100 ? s.substring(0, 100) + "…" : s;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }
}
