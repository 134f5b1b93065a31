package io.tributary.server.session;

import io.tributary.batch.Snapshot;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.Cluster;
import io.tributary.meta.Database;
import java.util.ArrayList;
import java.util.List;

/**
 * The snapshots one statement reads: its own database's, opened with the statement, and one of
 * each other database of the cluster it reads, opened when it first reads there (docs/ARCHITECTURE.md,
 * Cross-database queries). While it holds another database's snapshot the statement counts as a
 * session of that database ({@link Cluster#connect}), so {@code DROP DATABASE} refuses it with
 * 55006 instead of closing a store under a scan. Used on the session's thread; {@link #close} once,
 * when the statement's cursor closes.
 */
final class StatementReads implements AutoCloseable {
    private final Snapshot local;
    /** The server's databases; null for a server of one database. */
    private final Cluster cluster;

    /** The other databases read so far, in the order first read; null until one is. */
    private List<Peer> peers;

    /** Another database this statement reads: held as a session of it, and its snapshot. */
    private record Peer(String name, Database db, Snapshot snapshot) {}

    StatementReads(Database db, Cluster cluster) {
        this(db.snapshots().open(), cluster);
    }

    /** Reads {@code local} for the statement's own database (a transaction block's snapshot); closes it at {@link #close}. */
    StatementReads(Snapshot local, Cluster cluster) {
        this.local = local;
        this.cluster = cluster;
    }

    /** The statement's snapshot of its own database. */
    Snapshot local() {
        return local;
    }

    /**
     * The statement's snapshot of database {@code name}, opened at the first call for it.
     *
     * @throws TributaryException 3D000 when it does not exist (any more)
     */
    Snapshot peer(String name) {
        if (peers == null) {
            peers = new ArrayList<>(2);
        }
        for (Peer p : peers) {
            if (p.name().equals(name)) {
                return p.snapshot();
            }
        }
        if (cluster == null) {
            throw new TributaryException(SqlState.INVALID_CATALOG_NAME, "database \"" + name + "\" does not exist");
        }
        Database db = cluster.connect(name);
        try {
            Snapshot snapshot = db.snapshots().open();
            peers.add(new Peer(name, db, snapshot));
            return snapshot;
        } catch (RuntimeException e) {
            cluster.disconnect(db);
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            local.close();
        } finally {
            if (peers != null) {
                for (Peer p : peers) {
                    try {
                        p.snapshot().close();
                    } finally {
                        cluster.disconnect(p.db());
                    }
                }
            }
        }
    }
}
