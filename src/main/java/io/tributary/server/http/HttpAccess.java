package io.tributary.server.http;

import io.tributary.server.pgwire.ScramCredentials;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Who may use the HTTP side: with a server password, any client giving it by HTTP Basic (the user
 * name is not checked, as pgwire checks none); it is verified against the same SCRAM verifier
 * pgwire uses, so the server keeps no plain password. Without a password, only clients on the
 * loopback interface, whatever {@code --listen} says: an unauthenticated dashboard can cancel jobs.
 * Immutable; any thread.
 */
final class HttpAccess {
    /** The outcome of a check: allowed, or refused with a status (401 asks for credentials). */
    enum Verdict {
        ALLOWED,
        UNAUTHORIZED,
        FORBIDDEN
    }

    private final ScramCredentials credentials;

    /** @param credentials the server's password verifier, or null when it has no password */
    HttpAccess(ScramCredentials credentials) {
        this.credentials = credentials;
    }

    /**
     * @param peer the client's address
     * @param authorization the request's Authorization header, or null
     */
    Verdict check(InetAddress peer, String authorization) {
        if (credentials == null) {
            return peer.isLoopbackAddress() ? Verdict.ALLOWED : Verdict.FORBIDDEN;
        }
        String password = basicPassword(authorization);
        return password != null && credentials.verifies(password) ? Verdict.ALLOWED : Verdict.UNAUTHORIZED;
    }

    /** The password of a {@code Basic base64(user:password)} header, or null when there is none or it is malformed. */
    static String basicPassword(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        String decoded;
        try {
            decoded = new String(
                    Base64.getDecoder().decode(authorization.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
        int colon = decoded.indexOf(':');
        return colon < 0 ? null : decoded.substring(colon + 1);
    }
}
