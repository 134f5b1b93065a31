package io.tributary.server.pgwire;

import io.tributary.server.session.Session;
import java.security.SecureRandom;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The live backends of one server by process id, so that a CancelRequest arriving on a separate
 * connection can find the session it targets. Thread-safe.
 */
final class PgBackendRegistry {
    /** The BackendKeyData handed to a client. */
    record Key(int processId, int secretKey) {}

    private record Entry(int secretKey, Session session) {}

    private final ConcurrentHashMap<Integer, Entry> backends = new ConcurrentHashMap<>();
    private final SecureRandom random;

    PgBackendRegistry(SecureRandom random) {
        this.random = random;
    }

    /** Registers a session under a fresh random process id and secret key. */
    Key register(Session session) {
        int secret = random.nextInt();
        Entry entry = new Entry(secret, session);
        while (true) {
            // Positive ids look like real PostgreSQL pids to tools that print them.
            int pid = random.nextInt(Integer.MAX_VALUE - 1) + 1;
            if (backends.putIfAbsent(pid, entry) == null) {
                return new Key(pid, secret);
            }
        }
    }

    void unregister(Key key) {
        backends.computeIfPresent(key.processId(), (pid, e) -> e.secretKey() == key.secretKey() ? null : e);
    }

    /**
     * Cancels the running statement of the backend, if the key matches one. Like PostgreSQL, a
     * wrong key is silently ignored so the requester learns nothing. Called from the cancelling
     * connection's session thread.
     */
    void cancel(int processId, int secretKey) {
        Entry e = backends.get(processId);
        if (e != null && e.secretKey() == secretKey) {
            e.session().cancel();
        }
    }
}
