package io.tributary.meta.sink;

import io.tributary.catalog.SinkDef;
import io.tributary.common.BackgroundPriority;
import io.tributary.common.VirtualNodes;
import io.tributary.meta.jobs.JobId;
import io.tributary.meta.jobs.JobResult;
import io.tributary.meta.jobs.Notifier;
import io.tributary.storage.PinnedSnapshot;
import io.tributary.storage.StateStore;
import io.tributary.stream.upstream.LocalUpstreamTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A sink's backfill: copies the relation's snapshot at the sink's snapshot epoch S to the target
 * in chunks of primary-key order across all vnodes ({@link KeyOrderedSnapshot}), concurrently
 * with the head.
 *
 * <p>Parallel ranges: a backfill that starts afresh in this process (not one placed with {@code
 * backfill.remote}) cuts the snapshot into two key ranges (see {@link #RANGES_PROPERTY}) of about equal size ({@link
 * KeyOrderedSnapshot#cuts}) and copies them side by side, each over its own target connection and
 * thread ({@link SnapshotRange}), so the target ingests on several backends. The ranges' bounds
 * and positions live in the alias's position row ({@link RangedPosition}), written first in a
 * transaction of its own, so a restart resumes every range where its last chunk committed. A
 * backfill found with a single position (the worker's vnode-by-vnode order, or one merged key
 * order) resumes as one range.
 *
 * <p>Exactly once: each chunk's rows, the {@code backfill_processor_status} row ({@code
 * in_progress}) and its range's new position commit in one target transaction; (re)connecting
 * resumes after the last committed chunk of each range. A failure of any range ends the whole
 * attempt (the others are aborted, which rolls back their open chunk) and the delivery loop
 * retries from the target's positions. The last transaction, once every range is done, marks the
 * alias {@code complete} (and, for RESYNC, removes rows that vanished). Then the sink's catalog
 * record drops its pin.
 *
 * <p>Chunks of the first snapshot, when the sink was created in this process, go straight into
 * the target by COPY, leaving out the keys the head has written since S (an in-memory set the head
 * fills before each of its transactions takes the lock); the first key the target already holds
 * (23505) rolls the chunk back and turns that range to merging. Otherwise (after a restart, for
 * RESYNC) each chunk is staged and merged as follows.
 *
 * <p>No clobbering: while a backfill runs, the head records every key it writes in the sink's
 * marker table with the version (epoch) of its transaction, and a chunk writes a snapshot row only
 * when no marker of a version after S exists for its key. Every head transaction takes the sink's
 * advisory lock exclusively and every chunk transaction takes it (shared among the ranges, whose
 * keys are disjoint), so each chunk sees every marker committed before it and no head transaction
 * commits in the middle of a chunk. A key the head wrote after S holds a value at least as new as
 * S (the head delivers every epoch in order) and keeps it; a key the head deleted after S is not
 * brought back; any other key has not changed since S, so its snapshot row is its current value.
 */
final class SnapshotDelivery extends DeliveryLoop {
    /**
     * Key ranges copied side by side: by default one per two cores, since each range keeps a target
     * backend and a reader thread busy (on 2 cores one range measured faster than two: 0.79 against
     * 0.69 of PostgreSQL's COPY by median); the system property {@code
     * tributary.sink.backfill.ranges} sets it, read when a backfill starts afresh.
     */
    static final String RANGES_PROPERTY = "tributary.sink.backfill.ranges";

    private static final int DEFAULT_RANGES = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    /** Most ranges the property may ask for. */
    private static final int MAX_RANGES = 16;
    /**
     * Fewest rows vnode 0 must hold (so about 256 times as many in all) before the snapshot is cut
     * into ranges: below that one COPY is over before a second connection would be ready.
     */
    private static final int MIN_CUT_SAMPLE = 64;

    private final StateStore store;
    private final SinkDef def;
    private final JobId job;
    /** Hears that the target holds the snapshot (the job's end). */
    private final Notifier notifier;
    /**
     * The single position this delivery last read or committed: what the target must still hold
     * when a chunk commits. A worker wrongly presumed dead (its job fell back here) may still commit
     * a chunk; without this check the next local chunk would write the same rows again, which an
     * append-only target would keep twice.
     */
    private TargetTable.BackfillState expected;
    /** The ranged position as this delivery last read or committed it; each range fences on its own entry. */
    private RangedPosition ranged;
    /** The ranges running now, for the progress's vnodes_done. */
    private volatile List<SnapshotRange> running = List.of();

    /** @param def the sink as of this backfill's snapshot; a newer snapshot (RESYNC) makes a new delivery */
    SnapshotDelivery(RunningSink sink, SinkDef def, StateStore store, JobId job, Notifier notifier) {
        super(sink, sink.backfillProgress(), "sink-" + def.name() + "-backfill");
        this.store = store;
        this.def = def;
        this.job = job;
        this.notifier = notifier;
    }

    @Override
    protected boolean deliver(Connection c, Runnable madeProgress) throws Exception {
        // this loop's thread does nothing but the backfill, which must leave the core to writers
        BackgroundPriority.lowerCurrentThread();
        TargetTable table = sink.table();
        long snapshot = def.snapshotEpoch();
        TargetTable.BackfillState state = table.backfillState(c);
        c.commit();
        expected = state;
        ranged = null;
        boolean ours = state != null && state.startVersion() == snapshot;
        if (ours && state.status().equals("complete")) {
            notifier.notify(new JobResult(job, 0, "local", null));
            progress.vnodesDone(VirtualNodes.COUNT);
            progress.phase("complete");
            return true;
        }
        progress.delivered(snapshot, 0);
        progress.phase("snapshotting");
        PinnedSnapshot pin = new PinnedSnapshot(def.pin(), snapshot);
        if (ours && state.vnode() == RangedPosition.RANGED) {
            ranged = RangedPosition.decode(state.lastKey());
        } else if (!ours && !def.target().remoteBackfill()) {
            byte[][] cuts;
            try (LocalUpstreamTable upstream = LocalUpstreamTable.open(
                    store, pin, def.relationId(), sink.relation().columnTypes())) {
                cuts = KeyOrderedSnapshot.cuts(upstream, snapshot, ranges(), MIN_CUT_SAMPLE);
            }
            if (cuts.length > 0) {
                ranged = start(c, snapshot, RangedPosition.fresh(cuts));
            }
        }
        boolean copied;
        if (ranged == null) {
            SnapshotRange one =
                    new SnapshotRange(sink, def, new Single(), this::stopping, () -> chunkDone(madeProgress));
            running = List.of(one);
            try (LocalUpstreamTable upstream = LocalUpstreamTable.open(
                    store, pin, def.relationId(), sink.relation().columnTypes())) {
                copied = one.copy(c, upstream, ours ? state.vnode() : 0, ours ? state.lastKey() : null, null);
            }
        } else {
            copied = copyRanges(c, pin, madeProgress);
        }
        if (!copied) {
            return false;
        }
        table.lock(c);
        if (ranged == null) {
            fence(c);
        } else {
            RangedPosition now = table.rangedPositionForUpdate(c, snapshot);
            if (now == null || !now.allDone()) {
                throw new SQLException(
                        "another attempt wrote the target's backfill position meanwhile; resuming from it", "40001");
            }
        }
        if (def.generation() > 0 && table.upsert()) {
            table.removeVanished(c, snapshot);
        }
        table.clearMarkers(c);
        table.saveBackfill(c, snapshot, true, 0, null);
        c.commit();
        progress.vnodesDone(VirtualNodes.COUNT);
        progress.phase("complete");
        notifier.notify(new JobResult(job, 0, "local", null));
        return true;
    }

    /** The ranges a fresh backfill cuts (see {@link #RANGES_PROPERTY}), between 1 and {@link #MAX_RANGES}. */
    private static int ranges() {
        Integer n = Integer.getInteger(RANGES_PROPERTY, DEFAULT_RANGES);
        return Math.max(1, Math.min(MAX_RANGES, n));
    }

    /**
     * Writes the fresh ranged position (and the alias's {@code in_progress} row) in a transaction
     * of its own, fenced like a chunk, before any range copies: every chunk then rewrites its own
     * entry of a row that exists.
     */
    private RangedPosition start(Connection c, long snapshot, RangedPosition fresh) throws SQLException {
        TargetTable table = sink.table();
        table.lock(c);
        fence(c);
        table.saveBackfill(c, snapshot, false, RangedPosition.RANGED, fresh.encode());
        c.commit();
        return fresh;
    }

    /**
     * Copies the ranges not done yet side by side: the first on this thread and {@code c}, each
     * other on a thread and connection of its own. Any failure aborts the others' connections (their
     * open chunks roll back) and is thrown once all have ended, so the delivery loop retries all
     * ranges from the target's positions.
     *
     * @return false when stopped
     */
    private boolean copyRanges(Connection c, PinnedSnapshot pin, Runnable madeProgress) throws Exception {
        int n = ranged.ranges();
        List<SnapshotRange> ranges = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            ranges.add(new SnapshotRange(sink, def, new Ranged(r), this::stopping, () -> chunkDone(madeProgress)));
        }
        running = ranges;
        AtomicReference<Exception> failure = new AtomicReference<>();
        List<Connection> others = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        boolean[] finished = new boolean[n];
        try {
            for (int r = 1; r < n; r++) {
                if (ranged.done(r)) {
                    finished[r] = true;
                    continue;
                }
                Connection rc = TargetTable.connect(def.target());
                others.add(rc);
                sink.table().openSession(rc);
                int range = r;
                Thread t = new Thread(
                        () -> {
                            BackgroundPriority.lowerCurrentThread();
                            try {
                                finished[range] = copyRange(ranges.get(range), rc, pin, range);
                            } catch (Exception e) {
                                failure.compareAndSet(null, e);
                                abort(others);
                                abort(List.of(c));
                            }
                        },
                        "sink-" + def.name() + "-backfill-" + r);
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
            finished[0] = ranged.done(0) || copyRange(ranges.get(0), c, pin, 0);
        } catch (Exception e) {
            failure.compareAndSet(null, e);
            abort(others);
        } finally {
            for (Thread t : threads) {
                while (t.isAlive()) {
                    t.join(100);
                    if (stopping()) {
                        abort(others);
                    }
                }
            }
            for (Connection rc : others) {
                try {
                    rc.close();
                } catch (SQLException e) {
                    // aborted already
                }
            }
        }
        Exception e = failure.get();
        if (e != null && !stopping()) {
            throw e;
        }
        for (boolean f : finished) {
            if (!f) {
                return false;
            }
        }
        return true;
    }

    private boolean copyRange(SnapshotRange range, Connection rc, PinnedSnapshot pin, int r) throws SQLException {
        try (LocalUpstreamTable upstream = LocalUpstreamTable.open(
                store, pin, def.relationId(), sink.relation().columnTypes())) {
            return range.copy(rc, upstream, KeyOrderedSnapshot.MERGED, ranged.after(r), ranged.upTo(r));
        }
    }

    private static void abort(List<Connection> connections) {
        for (Connection rc : connections) {
            try {
                rc.abort(Runnable::run);
            } catch (SQLException | RuntimeException e) {
                // closing anyway
            }
        }
    }

    /** Any range's thread, after its chunk committed: the progress and the loop's backoff. */
    private void chunkDone(Runnable madeProgress) {
        int done = VirtualNodes.COUNT;
        for (SnapshotRange r : running) {
            done = Math.min(done, r.vnodesDone);
        }
        progress.vnodesDone(done);
        madeProgress.run();
    }

    /**
     * Under the sink's lock: throws when another attempt moved the single position since this
     * delivery read it, so the transaction rolls back and the delivery loop resumes from the
     * target's position (as after any target failure).
     */
    private void fence(Connection c) throws SQLException {
        if (!TargetTable.BackfillState.same(sink.table().backfillState(c), expected)) {
            throw new SQLException(
                    "another attempt wrote the target's backfill position meanwhile; resuming from it", "40001");
        }
    }

    /** The single position: the merged key order's last key, fenced as a whole. */
    private final class Single implements SnapshotRange.Position {
        private TargetTable.BackfillState pending;

        @Override
        public void lock(Connection c) throws SQLException {
            sink.table().lock(c);
        }

        @Override
        public void save(Connection c, byte[] lastKey, boolean finished) throws SQLException {
            fence(c);
            if (lastKey == null) {
                // nothing left to copy: the last transaction marks the alias complete
                return;
            }
            TargetTable table = sink.table();
            table.saveBackfill(c, def.snapshotEpoch(), false, KeyOrderedSnapshot.MERGED, lastKey);
            pending = table.backfillState(c);
        }

        @Override
        public void committed() {
            if (pending != null) {
                expected = pending;
                pending = null;
            }
        }
    }

    /** Range {@code r}'s entry of the ranged position, rewritten under the position row's lock. */
    private final class Ranged implements SnapshotRange.Position {
        private final int r;
        private RangedPosition pending;

        Ranged(int r) {
            this.r = r;
        }

        @Override
        public void lock(Connection c) throws SQLException {
            sink.table().lockShared(c);
        }

        @Override
        public void save(Connection c, byte[] lastKey, boolean finished) throws SQLException {
            TargetTable table = sink.table();
            RangedPosition now = table.rangedPositionForUpdate(c, def.snapshotEpoch());
            boolean same;
            synchronized (SnapshotDelivery.this) {
                same = now != null && now.sameRange(r, ranged);
            }
            if (!same) {
                throw new SQLException(
                        "another attempt wrote the target's backfill position meanwhile; resuming from it", "40001");
            }
            now.advance(r, lastKey, finished);
            table.saveBackfill(c, def.snapshotEpoch(), false, RangedPosition.RANGED, now.encode());
            pending = now;
        }

        @Override
        public void committed() {
            synchronized (SnapshotDelivery.this) {
                // only this range's entry is this thread's; the others' stay as their threads left them
                ranged.copyRange(r, pending);
            }
            pending = null;
        }
    }
}
