package io.tributary.server.session;

import io.tributary.catalog.pg.PgSession;

/**
 * What {@code pg_stat_activity} shows of one session: who it is and which statement it runs.
 * Written by the session's own thread as statements start and end; read by any session listing
 * the server's activity, so the changing fields are published together in one volatile record.
 */
final class SessionActivity {
    /**
     * The statement part: {@code state}, {@code query}, when the statement's first piece of work
     * (its parse, in the extended protocol) and its execution started, and the application's name then.
     */
    private record Current(
            String state, String query, Long xactStart, Long queryStart, long stateChange, String applicationName) {}

    private final long datid;
    private final String datname;
    private final int pid;
    private final String user;
    private final PgSession.Endpoints endpoints;
    private final long backendStart;
    private volatile Current current;

    /** @param applicationName the session's {@code application_name} as it starts */
    SessionActivity(
            long datid, String datname, int pid, String user, PgSession.Endpoints endpoints, String applicationName) {
        this.datid = datid;
        this.datname = datname;
        this.pid = pid;
        this.user = user;
        this.endpoints = endpoints;
        this.backendStart = nowMicros();
        this.current = new Current("idle", "", null, null, backendStart, applicationName);
    }

    int pid() {
        return pid;
    }

    PgSession.Endpoints endpoints() {
        return endpoints;
    }

    /**
     * Statement {@code sql} starts a piece of its work (parse, execution). Session thread.
     */
    void started(String sql, String applicationName) {
        long now = nowMicros();
        Current c = current;
        Long xactStart = c.state().equals("active") ? c.xactStart() : now;
        current = new Current(
                "active", sql, xactStart, now, c.state().equals("active") ? c.stateChange() : now, applicationName);
    }

    /**
     * The running statement is over; the session waits for the client. Session thread.
     *
     * @param applicationName the session's {@code application_name}, which the statement may have set
     */
    void idle(String applicationName) {
        Current c = current;
        if (!c.state().equals("idle")) {
            current = new Current("idle", c.query(), null, c.queryStart(), nowMicros(), applicationName);
        }
    }

    /** This session as {@code pg_stat_activity} lists it; any thread. */
    PgSession.Backend row() {
        Current c = current;
        return new PgSession.Backend(
                datid,
                datname,
                pid,
                user,
                c.applicationName(),
                endpoints.clientAddress(),
                endpoints.clientPort(),
                backendStart,
                c.xactStart(),
                c.queryStart(),
                c.stateChange(),
                c.state(),
                c.query());
    }

    private static long nowMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
