package dev.memfas.mcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;

/**
 * Who may call one of memfas's HTTP servers (MCP, the inspector), decided once from its options, by the same rules for
 * both: without tokens a server serves one namespace and must be on loopback; a bearer token or a token file of
 * several tenants lets it bind elsewhere.
 *
 * @param loopback whether the address served is a loopback address
 * @param open the namespace of every caller when no token is taken
 * @param tokens the tokens accepted, or null for none
 */
record HttpAccess(boolean loopback, Tenants open, AccessTokens tokens) {

    /**
     * @param what what is served, for the error ("MCP", "the inspector")
     * @throws IllegalStateException if the host is not a loopback address and no token was set, or both a bearer token
     *     and a token file were
     * @throws UncheckedIOException if the host is unknown or the token file cannot be read
     */
    static HttpAccess of(String host, String bearerToken, Path tokenFile, String served, String what) {
        boolean loopback;
        try {
            loopback = InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            throw new UncheckedIOException(new IOException("unknown host to bind to: " + host, e));
        }
        if (bearerToken != null && tokenFile != null) {
            throw new IllegalStateException("a bearer token or a token file, not both");
        }
        Tenants open = Tenants.only(served);
        AccessTokens tokens = tokenFile != null ? AccessTokens.read(tokenFile, served)
                : bearerToken != null ? AccessTokens.single(bearerToken, open) : null;
        if (!loopback && tokens == null) {
            throw new IllegalStateException("serving " + what + " on " + host + ", not a loopback address, needs a"
                    + " bearer token: any machine that reaches it could read and change every memory");
        }
        return new HttpAccess(loopback, open, tokens);
    }

    /**
     * A host to bind to, stripped.
     *
     * @throws IllegalArgumentException if blank
     */
    static String host(String host) {
        String stripped = java.util.Objects.requireNonNull(host, "host").trim();
        if (stripped.isEmpty()) {
            throw new IllegalArgumentException("host must not be blank");
        }
        return stripped;
    }

    /**
     * A port to bind to, 0 for any free one.
     *
     * @throws IllegalArgumentException if not in [0, 65535]
     */
    static int port(int port) {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be in [0, 65535]: " + port);
        }
        return port;
    }
}
