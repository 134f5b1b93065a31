package io.tributary.server.pgwire;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * One SCRAM-SHA-256 authentication exchange (RFC 5802 section 5): client-first, server-first,
 * client-final, server-final. Channel binding is not offered (no TLS), so the client must use the
 * gs2 header {@code n,,} or {@code y,,}. As in PostgreSQL, the SCRAM user name is ignored; the
 * StartupMessage's user counts. Used by one connection's session thread; not thread-safe.
 */
final class ScramExchange {
    static final String MECHANISM = "SCRAM-SHA-256";

    private final ScramCredentials credentials;
    private final SecureRandom random;
    private String clientFirstBare;
    private String serverFirst;
    private String nonce;
    private String gs2Header;

    ScramExchange(ScramCredentials credentials, SecureRandom random) {
        this.credentials = credentials;
        this.random = random;
    }

    /**
     * Takes {@code gs2-header client-first-bare} ({@code n,,n=user,r=nonce}) and returns the
     * server-first message {@code r=nonce,s=salt,i=iterations}.
     *
     * @throws TributaryException 08P01 for a malformed message or channel binding request
     */
    byte[] serverFirst(byte[] clientFirstMessage) {
        String msg = new String(clientFirstMessage, StandardCharsets.UTF_8);
        if (!(msg.startsWith("n,") || msg.startsWith("y,"))) {
            throw malformed("channel binding is not supported");
        }
        int bareStart = msg.indexOf(',', 2) + 1;
        if (bareStart == 0) {
            throw malformed("malformed SCRAM message");
        }
        gs2Header = msg.substring(0, bareStart);
        clientFirstBare = msg.substring(bareStart);
        String clientNonce = attribute(clientFirstBare, 'r');
        byte[] serverNonce = new byte[18];
        random.nextBytes(serverNonce);
        nonce = clientNonce + Base64.getEncoder().encodeToString(serverNonce);
        serverFirst = "r=" + nonce + ",s=" + Base64.getEncoder().encodeToString(credentials.salt()) + ",i="
                + credentials.iterations();
        return serverFirst.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Takes the client-final message {@code c=...,r=...,p=proof} and returns the server-final
     * message {@code v=signature}, or null when the proof does not match the password.
     *
     * @throws TributaryException 08P01 for a malformed message or a nonce mismatch
     */
    byte[] serverFinal(byte[] clientFinalMessage) {
        String msg = new String(clientFinalMessage, StandardCharsets.UTF_8);
        int proofAt = msg.lastIndexOf(",p=");
        if (proofAt < 0 || clientFirstBare == null) {
            throw malformed("malformed SCRAM message");
        }
        String withoutProof = msg.substring(0, proofAt);
        String binding = new String(base64(attribute(withoutProof, 'c')), StandardCharsets.UTF_8);
        if (!binding.equals(gs2Header) || !attribute(withoutProof, 'r').equals(nonce)) {
            throw malformed("SCRAM channel binding or nonce does not match");
        }
        byte[] proof = base64(msg.substring(proofAt + 3));
        String authMessage = clientFirstBare + "," + serverFirst + "," + withoutProof;
        byte[] clientSignature = ScramCredentials.hmac(credentials.storedKey(), authMessage);
        if (proof.length != clientSignature.length) {
            return null;
        }
        byte[] clientKey = new byte[proof.length];
        for (int i = 0; i < proof.length; i++) {
            clientKey[i] = (byte) (proof[i] ^ clientSignature[i]);
        }
        if (!MessageDigest.isEqual(sha256(clientKey), credentials.storedKey())) {
            return null;
        }
        byte[] serverSignature = ScramCredentials.hmac(credentials.serverKey(), authMessage);
        return ("v=" + Base64.getEncoder().encodeToString(serverSignature)).getBytes(StandardCharsets.UTF_8);
    }

    /** The value of {@code name=value} in a comma-separated SCRAM attribute list. */
    private static String attribute(String message, char name) {
        for (String part : message.split(",")) {
            if (part.length() >= 2 && part.charAt(0) == name && part.charAt(1) == '=') {
                return part.substring(2);
            }
        }
        throw malformed("SCRAM attribute " + name + " missing");
    }

    private static byte[] base64(String s) {
        try {
            return Base64.getDecoder().decode(s);
        } catch (IllegalArgumentException e) {
            throw malformed("malformed SCRAM message");
        }
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("JDK lacks SHA-256", e);
        }
    }

    private static TributaryException malformed(String message) {
        return new TributaryException(SqlState.PROTOCOL_VIOLATION, message);
    }
}
