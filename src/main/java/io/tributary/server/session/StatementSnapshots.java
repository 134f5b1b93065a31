package io.tributary.server.session;

import io.tributary.batch.Snapshot;
import io.tributary.meta.Cluster;
import io.tributary.meta.Database;
import io.tributary.sql.QueryCursor;
import io.tributary.sql.ReadContext;
import io.tributary.sql.StatementControl;
import java.util.List;

/**
 * What a session's statements read: the {@link ReadContext} its frontend's table scans ask for
 * their snapshot, set while a statement's cursor is opened or advanced. Used by one session, on
 * the thread running its statement (one at a time); not thread-safe.
 */
final class StatementSnapshots implements ReadContext {
    private final Database db;
    /** The server's databases, whose snapshots cross-database reads open; null for a server of one database. */
    private final Cluster cluster;

    private final TransactionBlock block;
    private final StatementControl control;
    /** What scans read now; null between statements' steps. */
    private StatementReads current;

    StatementSnapshots(Database db, Cluster cluster, TransactionBlock block, StatementControl control) {
        this.db = db;
        this.cluster = cluster;
        this.block = block;
        this.control = control;
    }

    /**
     * What a statement reads: the last committed epoch, or inside a transaction block the block's
     * snapshot with its own rows on top.
     */
    StatementReads reads() {
        io.tributary.meta.write.TransactionWrites writes = block.writes();
        return writes == null
                ? new StatementReads(db, cluster)
                : new StatementReads(Snapshot.of(writes.reads()), cluster);
    }

    /**
     * Runs {@code work} with {@code snapshot} as what table scans read. Calcite opens some scans
     * lazily (the second input of a UNION ALL only when the first is done), so every step of a
     * cursor runs inside this, not only its opening.
     */
    <T> T reading(StatementReads snapshot, java.util.function.Supplier<T> work) {
        StatementReads previous = current;
        current = snapshot;
        try {
            return work.get();
        } finally {
            current = previous;
        }
    }

    /**
     * Opens a DML's inner query; its snapshot closes with the cursor. Rows the statement writes
     * are not visible to it, as in PostgreSQL.
     */
    QueryCursor openQuery(io.tributary.sql.PreparedQuery query, List<Object> params) {
        StatementReads snapshot = reads();
        QueryCursor cursor;
        try {
            cursor = reading(snapshot, () -> query.open(params));
        } catch (RuntimeException e) {
            snapshot.close();
            throw e;
        }
        return new QueryCursor() {
            @Override
            public Object[] next() {
                return reading(snapshot, cursor::next);
            }

            @Override
            public void close() {
                try {
                    cursor.close();
                } finally {
                    snapshot.close();
                }
            }
        };
    }

    @Override
    public Snapshot snapshot() {
        return open().local();
    }

    @Override
    public Snapshot snapshot(String database) {
        return open().peer(database);
    }

    private StatementReads open() {
        if (current == null) {
            throw new IllegalStateException("no statement snapshot is open");
        }
        return current;
    }

    @Override
    public StatementControl control() {
        return control;
    }
}
