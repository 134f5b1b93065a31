package io.tributary.server.session;

import io.tributary.catalog.pg.PgSession;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The client sessions of one server by process id, for {@code pg_stat_activity},
 * {@code pg_cancel_backend} and {@code pg_terminate_backend}. A session is listed from when the
 * protocol gave it its process id ({@link Session#identify}) until it closes. Thread-safe.
 */
final class ActiveSessions {
    /** A listed session: what it shows, how to cancel its statement, how to end it. */
    private record Entry(SessionActivity activity, Runnable cancel, Runnable terminate) {}

    private final ConcurrentHashMap<Integer, Entry> sessions = new ConcurrentHashMap<>();

    void add(SessionActivity activity, Runnable cancel, Runnable terminate) {
        sessions.put(activity.pid(), new Entry(activity, cancel, terminate));
    }

    /** Removes the session of {@code activity}, if it is still the one listed under its pid. */
    void remove(SessionActivity activity) {
        sessions.computeIfPresent(activity.pid(), (pid, e) -> e.activity() == activity ? null : e);
    }

    /** Every listed session, by pid. */
    List<PgSession.Backend> rows() {
        List<PgSession.Backend> rows = new ArrayList<>();
        for (Entry e : sessions.values()) {
            rows.add(e.activity().row());
        }
        rows.sort(Comparator.comparingInt(PgSession.Backend::pid));
        return rows;
    }

    /**
     * Cancels the statement session {@code pid} runs now (it fails with 57014; an idle session
     * ignores it, as in PostgreSQL). Any thread.
     *
     * @return whether such a session exists
     */
    boolean cancel(int pid) {
        Entry e = sessions.get(pid);
        if (e == null) {
            return false;
        }
        e.cancel().run();
        return true;
    }

    /**
     * Ends session {@code pid}: its statement stops and its client is sent FATAL 57P01 and
     * disconnected. Any thread.
     *
     * @return whether such a session exists
     */
    boolean terminate(int pid) {
        Entry e = sessions.get(pid);
        if (e == null) {
            return false;
        }
        e.terminate().run();
        return true;
    }
}
