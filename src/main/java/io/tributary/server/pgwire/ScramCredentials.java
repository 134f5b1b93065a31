package io.tributary.server.pgwire;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The server side of a SCRAM-SHA-256 secret (RFC 5802/7677), what PostgreSQL stores in
 * {@code pg_authid}: salt, iteration count, StoredKey and ServerKey. Derived once from the configured
 * password so that connections do not repeat the expensive PBKDF2. Immutable and thread-safe.
 *
 * <p>The server derives it once and shares it between pgwire (SCRAM) and the HTTP side (Basic),
 * which checks a password with {@link #verifies} against the same verifier, so the plain password
 * need not be kept.
 */
public record ScramCredentials(byte[] salt, int iterations, byte[] storedKey, byte[] serverKey) {
    /** PostgreSQL's default {@code scram_iterations}. */
    static final int DEFAULT_ITERATIONS = 4096;

    /**
     * Derives credentials with a fresh random salt. The password is used as given: SASLprep
     * normalisation is not applied, which only matters for non-ASCII passwords.
     */
    public static ScramCredentials derive(String password, SecureRandom random) {
        byte[] salt = new byte[16];
        random.nextBytes(salt);
        try {
            PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, DEFAULT_ITERATIONS, 256);
            byte[] saltedPassword = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
                    .generateSecret(spec)
                    .getEncoded();
            byte[] clientKey = hmac(saltedPassword, "Client Key");
            byte[] storedKey = MessageDigest.getInstance("SHA-256").digest(clientKey);
            return new ScramCredentials(salt, DEFAULT_ITERATIONS, storedKey, hmac(saltedPassword, "Server Key"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("JDK lacks SCRAM-SHA-256 primitives", e);
        }
    }

    /**
     * Whether {@code password} is the one these credentials were derived from: its salted hash
     * gives the same StoredKey, as the server checks a SCRAM proof. Costs one PBKDF2 of
     * {@link #iterations()} rounds (a few milliseconds); compares in constant time. Any thread.
     */
    public boolean verifies(String password) {
        try {
            PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, iterations, 256);
            byte[] saltedPassword = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
                    .generateSecret(spec)
                    .getEncoded();
            byte[] candidate = MessageDigest.getInstance("SHA-256").digest(hmac(saltedPassword, "Client Key"));
            return MessageDigest.isEqual(candidate, storedKey);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("JDK lacks SCRAM-SHA-256 primitives", e);
        }
    }

    static byte[] hmac(byte[] key, String message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(message.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("JDK lacks HmacSHA256", e);
        }
    }
}
