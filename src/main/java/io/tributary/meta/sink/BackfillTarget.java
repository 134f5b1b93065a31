package io.tributary.meta.sink;

import io.tributary.catalog.SinkDef;
import io.tributary.catalog.TableDef;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * A remote worker's side of a sink backfill: the target connection and the chunk transactions,
 * with the same statements, lock and status rows as the local {@link SnapshotDelivery}, so either
 * can resume what the other committed. Every transaction is fenced: under the sink's advisory lock
 * it checks that the target's resume position is still the one this attempt last committed, so a
 * worker that was given up (presumed dead, or replaced by a local fallback) writes nothing more and
 * progress never goes back. One worker thread; not thread-safe.
 */
public final class BackfillTarget implements AutoCloseable {
    private final TargetTable table;
    private final Connection c;
    private final long snapshot;
    private final boolean resync;
    /** Whether chunks are in PostgreSQL's binary COPY format (see {@link #binary()}). */
    private final boolean binary;
    /** The position this attempt last read or committed: what the target must still hold. */
    private TargetTable.BackfillState expected;

    /**
     * How long the target lets this connection sit idle inside a transaction before it ends the
     * session: far above the pause between one chunk transaction's statements.
     */
    static final int STALLED_TRANSACTION_SECONDS = 30;

    /** Where a backfill resumes: the vnode, and the last key copied in it (null: from its start). */
    public record Position(int vnode, byte[] lastKey) {}

    private BackfillTarget(SinkDef def, TableDef relation) throws SQLException {
        this.table = new TargetTable(def, relation);
        this.snapshot = def.snapshotEpoch();
        this.resync = def.generation() > 0;
        this.binary = CopyBinary.supports(relation.columnTypes(), table.columnIndexes());
        this.c = TargetTable.connect(def.target());
        try {
            try (java.sql.Statement s = c.createStatement()) {
                // a worker stalled inside a chunk's transaction (stopped, swapped out) holds the sink's lock, and the
                // attempt that replaces it would wait for that lock as long as the stall lasts: the target ends such
                // a session instead, and the stalled attempt, fenced out anyway, fails when it wakes
                s.execute("SET idle_in_transaction_session_timeout = '" + STALLED_TRANSACTION_SECONDS + "s'");
            }
            table.openSession(c, true);
            expected = table.backfillState(c);
            c.commit();
        } catch (SQLException e) {
            c.close();
            throw e;
        }
    }

    /**
     * Connects to the sink's target (autocommit off) and reads where its backfill stands.
     *
     * @throws io.tributary.common.TributaryException 08001 when the target cannot be reached
     */
    public static BackfillTarget open(SinkDef def, TableDef relation) throws SQLException {
        return new BackfillTarget(def, relation);
    }

    /**
     * Whether the chunks {@link #writeChunk} takes are in PostgreSQL's binary COPY format: true
     * when every column the target holds has a binary form the server writes (all types but
     * NUMERIC), so the worker asks the server for binary pieces; otherwise COPY text.
     */
    public boolean binary() {
        return binary;
    }

    /**
     * Where to resume; null when the target already holds the whole snapshot.
     *
     * @throws IllegalStateException when the server began copying this snapshot in parallel key
     *     ranges, whose positions only the server resumes
     */
    public Position position() {
        if (expected != null && expected.startVersion() == snapshot) {
            if (expected.status().equals("complete")) {
                return null;
            }
            if (expected.vnode() == RangedPosition.RANGED) {
                throw new IllegalStateException(
                        "the server began this backfill in parallel key ranges; only the" + " server resumes it");
            }
            return new Position(expected.vnode(), expected.lastKey());
        }
        return new Position(0, null);
    }

    /**
     * One chunk's transaction: stages {@code copyData} ({@link SnapshotChunk} rows as COPY text, or
     * a complete binary COPY body when {@link #binary()}), merges it as the local backfill does, and
     * records the new position, all committed together.
     *
     * @return false when another attempt has moved the position meanwhile: nothing was written, and
     *     this attempt must stop
     */
    public boolean writeChunk(byte[] copyData, Position next) throws SQLException {
        try {
            table.lock(c);
            if (!stillOurs()) {
                c.rollback();
                return false;
            }
            if (copyData.length > 0) {
                table.copyInWithKeys(c, copyData, binary);
                table.mergeSnapshot(c, snapshot, resync);
            }
            table.saveBackfill(c, snapshot, false, next.vnode(), next.lastKey());
            TargetTable.BackfillState now = table.backfillState(c);
            c.commit();
            expected = now;
            return true;
        } catch (SQLException e) {
            rollbackQuietly();
            throw e;
        }
    }

    /**
     * The last transaction: marks the alias {@code complete} (for RESYNC, removing rows that
     * vanished first) and forgets the key markers.
     *
     * @return false when another attempt moved the position meanwhile (nothing written)
     */
    public boolean complete() throws SQLException {
        try {
            table.lock(c);
            if (!stillOurs()) {
                c.rollback();
                return false;
            }
            if (resync && table.upsert()) {
                table.removeVanished(c, snapshot);
            }
            table.clearMarkers(c);
            table.saveBackfill(c, snapshot, true, 0, null);
            c.commit();
            return true;
        } catch (SQLException e) {
            rollbackQuietly();
            throw e;
        }
    }

    private boolean stillOurs() throws SQLException {
        return TargetTable.BackfillState.same(table.backfillState(c), expected);
    }

    private void rollbackQuietly() {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // the connection is broken; closing it ends the transaction
        }
    }

    @Override
    public void close() {
        try {
            c.close();
        } catch (SQLException ignored) {
            // nothing is pending: every transaction committed or rolled back
        }
    }
}
