package io.tributary.server.session;

import io.tributary.catalog.TableDef;
import io.tributary.catalog.pg.PgSequencePosition;
import io.tributary.catalog.pg.PgSession;
import io.tributary.meta.Cluster;
import io.tributary.meta.Database;
import io.tributary.meta.write.Sequences;
import java.util.List;

/**
 * What {@code pg_catalog} shows of one session: its user, its current settings, its database's
 * sequences and the sizes of its relations and of the server's databases. Session thread only.
 */
final class CatalogSession implements PgSession {
    private final String user;
    private final SessionVariables variables;
    private final Sequences sequences;
    private final Database db;
    /** The server's databases; null for a server of one database. */
    private final Cluster cluster;

    private final java.util.function.Supplier<SessionActivity> activity;
    private final ActiveSessions sessions;
    private final SessionClock clock;

    /**
     * @param activity the session's activity, which holds its process id and connection; null
     *     before the protocol identified the session
     * @param sessions the server's sessions
     * @param clock when the session's transaction and statement started
     */
    CatalogSession(
            String user,
            SessionVariables variables,
            Database db,
            Cluster cluster,
            java.util.function.Supplier<SessionActivity> activity,
            ActiveSessions sessions,
            SessionClock clock) {
        this.activity = activity;
        this.clock = clock;
        this.sessions = sessions;
        this.user = user == null || user.isEmpty() ? "root" : user;
        this.variables = variables;
        this.sequences = db.sequences();
        this.db = db;
        this.cluster = cluster;
    }

    @Override
    public int processId() {
        SessionActivity a = activity.get();
        return a == null ? 0 : a.pid();
    }

    @Override
    public Endpoints endpoints() {
        SessionActivity a = activity.get();
        return a == null ? Endpoints.NONE : a.endpoints();
    }

    @Override
    public long transactionId(boolean assign) {
        return clock.transactionId(assign);
    }

    @Override
    public long transactionStartMicros() {
        return clock.transactionStartMicros();
    }

    @Override
    public long statementStartMicros() {
        return clock.statementStartMicros();
    }

    @Override
    public List<Backend> backends() {
        return sessions.rows();
    }

    @Override
    public boolean signalBackend(int pid, boolean terminate) {
        return terminate ? sessions.terminate(pid) : sessions.cancel(pid);
    }

    @Override
    public long relationBytes(int tableId) {
        return db.approximateBytes(tableId);
    }

    @Override
    public long databaseBytes(String name) {
        Database target = name.equals(db.name())
                ? db
                : cluster == null ? null : cluster.database(name).orElse(null);
        if (target == null) {
            return -1;
        }
        long bytes = 0;
        for (TableDef t : target.catalog().tables()) {
            bytes += target.approximateBytes(t.id());
            for (int id : t.stateTableIds()) {
                bytes += target.approximateBytes(id);
            }
        }
        return bytes;
    }

    @Override
    public long sequenceValue(int tableId, int column) {
        return sequences.current(tableId, column);
    }

    @Override
    public PgSequencePosition createdSequencePosition(int id, long start) {
        return sequences.position(id, 0, start, PgSequencePosition::new);
    }

    @Override
    public String user() {
        return user;
    }

    @Override
    public List<Setting> settings() {
        return variables.settings();
    }
}
