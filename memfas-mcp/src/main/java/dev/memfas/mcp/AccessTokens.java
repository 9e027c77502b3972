package dev.memfas.mcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The bearer tokens an HTTP server accepts, each with the namespaces its holder may use. Only SHA-256 digests of the
 * tokens are kept.
 *
 * <p>A tokens file has one client a line: its token, then, after white space, the namespaces it may use, separated by
 * commas, the first its default; a line with the token alone may use the namespace the server serves ({@code default}
 * unless told). Blank lines and lines starting with {@code #} are skipped:
 *
 * <pre>
 * # token                              namespaces
 * 3q2+7w-LongRandomTokenOfTeamA        team-a
 * Jx9_AnotherLongRandomTokenOfOps      ops,team-a
 * </pre>
 */
final class AccessTokens {
    private static final int MIN_TOKEN_LENGTH = MemfasMcpHttpServer.MIN_TOKEN_LENGTH;

    /** Tenants by the hex SHA-256 of the token. */
    private final Map<String, Tenants> byDigest;

    private AccessTokens(Map<String, Tenants> byDigest) {
        this.byDigest = Map.copyOf(byDigest);
    }

    /** One token, for the given namespaces. */
    static AccessTokens single(String token, Tenants tenants) {
        checkToken(token, "bearer token");
        return new AccessTokens(Map.of(digest(token), tenants));
    }

    /**
     * Reads a tokens file.
     *
     * @param served the namespace of a line that names none
     * @throws IllegalArgumentException naming the file and line of a token too short, listed twice or with a bad
     *     namespace; if the file holds no token, or other users may read it
     * @throws UncheckedIOException if it cannot be read
     */
    static AccessTokens read(Path file, String served) {
        refuseIfOthersMayRead(file);
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(new IOException("cannot read the tokens file " + file + ": " + e, e));
        }
        Map<String, Tenants> byDigest = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String where = file + ", line " + (i + 1);
            String[] parts = line.split("\\s+");
            if (parts.length > 2) {
                throw new IllegalArgumentException(where + ": expected a token and a comma-separated list of"
                        + " namespaces, found " + parts.length + " fields");
            }
            checkToken(parts[0], where + ": the token");
            Tenants tenants;
            try {
                tenants = parts.length == 1 ? Tenants.only(served)
                        : new Tenants(Arrays.stream(parts[1].split(",", -1)).toList());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
            }
            if (byDigest.put(digest(parts[0]), tenants) != null) {
                throw new IllegalArgumentException(where + ": this token is listed twice");
            }
        }
        if (byDigest.isEmpty()) {
            throw new IllegalArgumentException("the tokens file holds no token: " + file);
        }
        return new AccessTokens(byDigest);
    }

    /**
     * The tenants of a token, by its {@linkplain #keyOf key}; null if it is none of these. A map keyed by the digest:
     * what a lookup's time may show is about the digest, which says nothing of a token.
     */
    Tenants lookUp(String key) {
        return byDigest.get(key);
    }

    /** What names a token presented, to look it up and to bind its MCP sessions to: its digest, never the token. */
    static String keyOf(String presented) {
        return digest(presented);
    }

    static void checkToken(String token, String what) {
        if (token.length() < MIN_TOKEN_LENGTH) {
            throw new IllegalArgumentException(what + " must have at least " + MIN_TOKEN_LENGTH
                    + " characters: it has " + token.length());
        }
        if (!token.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new IllegalArgumentException(what
                    + " must be printable ASCII without spaces, as an HTTP header carries it");
        }
    }

    private static void refuseIfOthersMayRead(Path file) {
        Set<PosixFilePermission> mode;
        try {
            mode = Files.getPosixFilePermissions(file);
        } catch (UnsupportedOperationException e) {
            return; // not a POSIX file system: its access lists are the user's to set
        } catch (IOException e) {
            throw new UncheckedIOException(new IOException("cannot read the tokens file " + file + ": " + e, e));
        }
        if (mode.contains(PosixFilePermission.GROUP_READ) || mode.contains(PosixFilePermission.OTHERS_READ)) {
            throw new IllegalArgumentException("the tokens file " + file + " may be read by other users (mode "
                    + PosixFilePermissions.toString(mode) + "): make it the owner's alone, chmod 600 " + file);
        }
    }

    private static String digest(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
