package dev.memfas.mcp;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may call the HTTP server. A request from a web page of another site (an {@code Origin} header whose host is not
 * this machine's loopback name) is refused with 403, so that a page cannot reach a server on loopback through its
 * visitor's browser (DNS rebinding). With a bearer token, a request without it, or with another, is refused with 401;
 * the comparison takes the same time whatever the token sent, and a refusal is logged without it.
 */
final class ClientAccess implements Filter {
    private static final Logger LOG = LoggerFactory.getLogger(ClientAccess.class);
    private static final Set<String> LOOPBACK_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]", "::1");
    private static final String BEARER = "Bearer ";

    /** SHA-256 of the token, or null when none is required. */
    private final byte[] tokenDigest;

    ClientAccess(String bearerToken) {
        this.tokenDigest = bearerToken == null ? null : sha256(bearerToken);
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        String origin = request.getHeader("Origin");
        if (origin != null && !fromThisMachine(origin)) {
            refuse(request, response, HttpServletResponse.SC_FORBIDDEN, "requests from web pages of other sites are"
                    + " not served (Origin " + printable(origin) + ")");
            return;
        }
        if (tokenDigest != null) {
            String authorization = request.getHeader("Authorization");
            if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
                refuse(request, response, HttpServletResponse.SC_UNAUTHORIZED, "no bearer token");
                return;
            }
            // Digests of equal length, compared in constant time: neither the token's length nor its first
            // differing character shows in the time taken.
            byte[] sent = sha256(authorization.substring(BEARER.length()).trim());
            if (!MessageDigest.isEqual(sent, tokenDigest)) {
                refuse(request, response, HttpServletResponse.SC_UNAUTHORIZED, "wrong bearer token");
                return;
            }
        }
        chain.doFilter(req, res);
    }

    private static boolean fromThisMachine(String origin) {
        try {
            String host = URI.create(origin.trim()).getHost();
            return host != null && LOOPBACK_HOSTS.contains(host.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static void refuse(HttpServletRequest request, HttpServletResponse response, int status, String why)
            throws IOException {
        LOG.warn("refused an MCP request from {} ({} {}): {}", request.getRemoteAddr(), request.getMethod(),
                printable(request.getRequestURI()), why);
        response.setStatus(status);
        if (status == HttpServletResponse.SC_UNAUTHORIZED) {
            response.setHeader("WWW-Authenticate", "Bearer realm=\"memfas\"");
        }
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        String reason = why.replace("\\", "\\\\").replace("\"", "\\\"");
        response.getWriter().write("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32001,\"message\":\"" + reason + "\"}}");
    }

    /** At most 100 characters, without control characters, for a log line a caller's header cannot forge. */
    private static String printable(String s) {
        String cut = s.length() > 100 ? s.substring(0, 100) + "…" : s;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
