package io.tributary.meta.sink;

import io.tributary.catalog.SinkDef;
import io.tributary.common.VirtualNodes;
import io.tributary.storage.PinnedSnapshot;
import io.tributary.storage.StateStore;
import io.tributary.stream.RowStream;
import io.tributary.stream.upstream.LocalUpstreamTable;
import java.sql.Connection;

/**
 * A sink's backfill: copies the relation's snapshot at the sink's snapshot epoch S to the target
 * in key-ordered chunks (vnode by vnode, each in primary-key order), concurrently with the head.
 *
 * <p>Exactly once: each chunk's rows, the {@code backfill_processor_status} row ({@code
 * in_progress}) and the resume position (vnode, last key) commit in one target transaction;
 * (re)connecting resumes after the last committed chunk. The last transaction marks the alias
 * {@code complete} (and, for RESYNC, removes rows that vanished). Then the sink's catalog record
 * drops its pin.
 *
 * <p>No clobbering: while a backfill runs, the head records every key it writes in the sink's
 * marker table with the version (epoch) of its transaction, and a chunk writes a snapshot row only
 * when no marker of a version after S exists for its key. The two threads' transactions take the
 * same advisory lock, so each sees the other's committed markers. A key the head wrote after S
 * holds a value at least as new as S (the head delivers every epoch in order) and keeps it; a key
 * the head deleted after S is not brought back; any other key has not changed since S, so its
 * snapshot row is its current value.
 */
final class SnapshotDelivery extends DeliveryLoop {
    private static final int CHUNK_ROWS = 20_000;
    /** Under a rate limit, a chunk is at most this fraction of a second of rows, so progress commits often. */
    private static final int CHUNKS_PER_SECOND = 5;

    private static final int MIN_CHUNK_ROWS = 100;

    private final StateStore store;
    private final CopyText copy;
    private final SinkDef def;

    /** @param def the sink as of this backfill's snapshot; a newer snapshot (RESYNC) makes a new delivery */
    SnapshotDelivery(RunningSink sink, SinkDef def, StateStore store) {
        super(sink, sink.backfillProgress(), "sink-" + def.name() + "-backfill");
        this.store = store;
        this.def = def;
        this.copy = new CopyText(sink.relation().columnTypes(), sink.table().columnIndexes());
    }

    @Override
    protected boolean deliver(Connection c, Runnable madeProgress) throws Exception {
        TargetTable table = sink.table();
        long snapshot = def.snapshotEpoch();
        boolean resync = def.generation() > 0;
        TargetTable.BackfillState state = table.backfillState(c);
        c.commit();
        int vnode = 0;
        byte[] lastKey = null;
        if (state != null && state.startVersion() == snapshot) {
            if (state.status().equals("complete")) {
                sink.backfillDone(def);
                progress.phase("complete");
                return true;
            }
            vnode = state.vnode();
            lastKey = state.lastKey();
        }
        progress.delivered(snapshot, 0);
        PinnedSnapshot pin = new PinnedSnapshot(def.pin(), snapshot);
        try (LocalUpstreamTable upstream = LocalUpstreamTable.open(
                store, pin, def.relationId(), sink.relation().columnTypes())) {
            while (vnode < VirtualNodes.COUNT) {
                if (stopping()) {
                    return false;
                }
                progress.phase(sink.limiter().paused() ? "paused" : "snapshotting");
                copy.reset();
                long rate = sink.limiter().rate();
                int chunk = rate > 0
                        ? (int) Math.max(MIN_CHUNK_ROWS, Math.min(CHUNK_ROWS, rate / CHUNKS_PER_SECOND))
                        : CHUNK_ROWS;
                while (copy.rows() < chunk && vnode < VirtualNodes.COUNT) {
                    boolean exhausted;
                    try (RowStream rows = upstream.snapshot(vnode, snapshot, lastKey)) {
                        while (copy.rows() < chunk) {
                            if (!rows.next()) {
                                break;
                            }
                            copy.add(rows.row(), 'U');
                            lastKey = rows.pk();
                        }
                        exhausted = copy.rows() < chunk || !rows.next();
                    }
                    if (exhausted) {
                        vnode++;
                        lastKey = null;
                    }
                }
                int n = copy.rows();
                sink.limiter().acquire(n);
                table.lock(c);
                if (n > 0) {
                    table.copyIn(c, copy.bytes());
                    table.mergeSnapshot(c, snapshot, resync);
                }
                table.saveBackfill(c, snapshot, false, vnode, lastKey);
                c.commit();
                progress.delivered(snapshot, n);
                madeProgress.run();
            }
        }
        table.lock(c);
        if (resync && table.upsert()) {
            table.removeVanished(c, snapshot);
        }
        table.clearMarkers(c);
        table.saveBackfill(c, snapshot, true, 0, null);
        c.commit();
        progress.phase("complete");
        sink.backfillDone(def);
        return true;
    }
}
