package io.tributary.meta.sink;

import io.tributary.catalog.SinkDef;
import io.tributary.catalog.SourceDef;
import io.tributary.common.BackgroundPriority;
import io.tributary.common.SqlState;
import io.tributary.common.VirtualNodes;
import io.tributary.meta.jobs.JobId;
import io.tributary.meta.jobs.JobResult;
import io.tributary.meta.jobs.Notifier;
import io.tributary.storage.PinnedSnapshot;
import io.tributary.storage.StateStore;
import io.tributary.stream.upstream.LocalUpstreamTable;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.postgresql.copy.CopyIn;

/**
 * A sink's backfill: copies the relation's snapshot at the sink's snapshot epoch S to the target
 * in chunks of one primary-key order across all vnodes ({@link KeyOrderedSnapshot}), concurrently
 * with the head.
 *
 * <p>Exactly once: each chunk's rows, the {@code backfill_processor_status} row ({@code
 * in_progress}) and the resume position (the last key) commit in one target transaction;
 * (re)connecting resumes after the last committed chunk. The last transaction marks the alias
 * {@code complete} (and, for RESYNC, removes rows that vanished). Then the sink's catalog record
 * drops its pin.
 *
 * <p>Chunks of the first snapshot, when the sink was created in this process, go straight into
 * the target by COPY, leaving out the keys the head has written since S (an in-memory set the head
 * fills before each of its transactions takes the lock); the first key the target already holds
 * (23505) rolls the chunk back and turns the backfill to merging. Otherwise (after a restart, for
 * RESYNC) each chunk is staged and merged as follows.
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
    /**
     * Most rows of a straight COPY's chunk: large, since each chunk costs a commit and a wait for
     * the target to finish its COPY, with the reader idle; {@link #CHUNK_NANOS} bounds it in time.
     */
    private static final int CHUNK_ROWS = 100_000;
    /**
     * How long a straight COPY's chunk may stream without a rate limit: it holds the sink's lock,
     * so the head waits for it.
     */
    private static final long CHUNK_NANOS = 500_000_000L;
    /** Rows of a staged chunk, read before its transaction and merged by one statement. */
    private static final int MERGE_CHUNK_ROWS = 20_000;
    /** Under a rate limit, a chunk is at most this fraction of a second of rows, so progress commits often. */
    private static final int CHUNKS_PER_SECOND = 5;

    private static final int MIN_CHUNK_ROWS = 100;
    /** Rows formatted per piece of a straight COPY: the target ingests a piece while the next is formatted. */
    private static final int PIECE_ROWS = 1_000;

    private final StateStore store;
    /** Staged chunks' body (with the operation); {@link #direct}, a straight COPY's. Both encode stored rows. */
    private final CopyBody staged;

    private final CopyBody direct;
    private final SinkDef def;
    private final JobId job;
    /** Hears that the target holds the snapshot (the job's end). */
    private final Notifier notifier;
    /** The current chunk's rows as stored, kept until the transaction decides which to write. */
    private final List<byte[]> chunkRows = new ArrayList<>();
    /** Their primary keys, as the head's key set holds them. */
    private final List<ByteBuffer> chunkKeys = new ArrayList<>();

    /** @param def the sink as of this backfill's snapshot; a newer snapshot (RESYNC) makes a new delivery */
    SnapshotDelivery(RunningSink sink, SinkDef def, StateStore store, JobId job, Notifier notifier) {
        super(sink, sink.backfillProgress(), "sink-" + def.name() + "-backfill");
        this.store = store;
        this.def = def;
        this.job = job;
        this.notifier = notifier;
        int[] columns = sink.table().columnIndexes();
        int[] key = sink.table().keyIndexes(sink.relation());
        this.staged = CopyBody.of(sink.relation().columnTypes(), columns, key, true);
        this.direct = CopyBody.of(sink.relation().columnTypes(), columns, key, false);
    }

    @Override
    protected boolean deliver(Connection c, Runnable madeProgress) throws Exception {
        // this loop's thread does nothing but the backfill, which must leave the core to writers
        BackgroundPriority.lowerCurrentThread();
        TargetTable table = sink.table();
        long snapshot = def.snapshotEpoch();
        boolean resync = def.generation() > 0;
        TargetTable.BackfillState state = table.backfillState(c);
        c.commit();
        expected = state;
        int vnode = 0;
        byte[] lastKey = null;
        if (state != null && state.startVersion() == snapshot) {
            if (state.status().equals("complete")) {
                notifier.notify(new JobResult(job, 0, "local", null));
                progress.vnodesDone(VirtualNodes.COUNT);
                progress.phase("complete");
                return true;
            }
            vnode = state.vnode();
            lastKey = state.lastKey();
        }
        progress.delivered(snapshot, 0);
        copyStraight = sink.touchedKeys() != null && def.generation() == 0;
        PinnedSnapshot pin = new PinnedSnapshot(def.pin(), snapshot);
        try (LocalUpstreamTable upstream = LocalUpstreamTable.open(
                        store, pin, def.relationId(), sink.relation().columnTypes());
                KeyOrderedSnapshot rows = new KeyOrderedSnapshot(upstream, snapshot, vnode, lastKey)) {
            progress.vnodesDone(rows.vnodesDone());
            reader = rows;
            more = rows.next();
            while (more) {
                if (stopping()) {
                    return false;
                }
                progress.phase(sink.limiter().paused() ? "paused" : "snapshotting");
                chunkRows.clear();
                chunkKeys.clear();
                long rate = sink.limiter().rate();
                boolean limited = rate != SourceDef.UNLIMITED;
                int chunk = copyStraight ? CHUNK_ROWS : MERGE_CHUNK_ROWS;
                if (limited) {
                    chunk = (int) Math.max(MIN_CHUNK_ROWS, Math.min(chunk, rate / CHUNKS_PER_SECOND));
                    // only the snapshot's last chunk takes fewer rows than it acquired
                    if (!sink.limiter().acquire(chunk, this::stopping)) {
                        return false;
                    }
                }
                if (!writeChunk(c, snapshot, resync, chunk, !limited)) {
                    // the target holds some of these keys already: merge from now on
                    c.rollback();
                    copyStraight = false;
                    writeChunk(c, snapshot, resync, chunk, false);
                }
                progress.delivered(snapshot, chunkRows.size());
                progress.vnodesDone(more ? rows.vnodesDone() : VirtualNodes.COUNT);
                madeProgress.run();
            }
        } finally {
            reader = null;
        }
        copyStraight = false;
        table.lock(c);
        fence(c);
        if (resync && table.upsert()) {
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

    /** Whether chunks go straight into the target by COPY (see {@link RunningSink#touchedKeys}). */
    private boolean copyStraight;

    /** The snapshot being delivered, while {@link #deliver} runs; its current row is the next to take. */
    private KeyOrderedSnapshot reader;
    /** Whether {@link #reader} has a current row. */
    private boolean more;

    /** Moves the reader's current row into the chunk and advances. */
    private void take() {
        chunkRows.add(reader.encodedRow());
        chunkKeys.add(ByteBuffer.wrap(reader.pk()));
        more = reader.next();
    }

    /**
     * One chunk's transaction: up to {@code chunk} rows of the reader (more of them if a rolled-back
     * attempt already took some), written straight (skipping the keys the head wrote) or merged,
     * with the status row and the position (the chunk's last key), committed together. A straight
     * COPY reads the rows while it streams them, so the target ingests a piece while the reader
     * decodes the next.
     *
     * @return false when a straight COPY met a key the target holds; the transaction must be rolled back
     */
    private boolean writeChunk(Connection c, long snapshot, boolean resync, int chunk, boolean timed)
            throws SQLException {
        TargetTable table = sink.table();
        boolean straight = copyStraight && sink.touchedKeys() != null;
        if (!straight) {
            // staged: read before taking the lock, so the head waits only for the merge
            while (more && chunkRows.size() < chunk) {
                take();
            }
        }
        table.lock(c);
        fence(c);
        java.util.Set<ByteBuffer> touched = sink.touchedKeys();
        if (straight && touched != null) {
            // read under the lock: every head transaction committed before it has added its keys
            CopyIn copy = table.copyDirect(c, direct);
            long deadline = System.nanoTime() + CHUNK_NANOS;
            try {
                direct.start();
                for (int i = 0; ; i++) {
                    if (i == chunkRows.size()) {
                        if (!more || i >= chunk || timed && i % PIECE_ROWS == 0 && System.nanoTime() > deadline) {
                            break;
                        }
                        take();
                    }
                    if (!touched.contains(chunkKeys.get(i))) {
                        direct.add(chunkRows.get(i), 'U');
                        if (direct.rows() % PIECE_ROWS == 0) {
                            direct.drainTo(copy);
                        }
                    }
                }
                direct.finish();
                direct.drainTo(copy);
                copy.endCopy();
            } catch (SQLException e) {
                if (copy.isActive()) {
                    copy.cancelCopy();
                }
                if (SqlState.UNIQUE_VIOLATION.equals(e.getSQLState())) {
                    return false;
                }
                throw e;
            }
        } else {
            while (more && chunkRows.size() < chunk) {
                take();
            }
            if (!chunkRows.isEmpty()) {
                staged.start();
                for (byte[] row : chunkRows) {
                    staged.add(row, 'U');
                }
                staged.finish();
                table.copyIn(c, staged);
                table.mergeSnapshot(c, snapshot, resync);
            }
        }
        table.saveBackfill(
                c,
                snapshot,
                false,
                KeyOrderedSnapshot.MERGED,
                chunkKeys.get(chunkKeys.size() - 1).array());
        TargetTable.BackfillState now = table.backfillState(c);
        c.commit();
        expected = now;
        return true;
    }

    /**
     * The position this delivery last read or committed: what the target must still hold when a
     * chunk commits. A worker wrongly presumed dead (its job fell back here) may still commit a
     * chunk; without this check the next local chunk would write the same rows again, which an
     * append-only target would keep twice.
     */
    private TargetTable.BackfillState expected;

    /**
     * Under the sink's lock: throws when another attempt moved the position since this delivery
     * read it, so the transaction rolls back and the delivery loop resumes from the target's
     * position (as after any target failure).
     */
    private void fence(Connection c) throws SQLException {
        if (!TargetTable.BackfillState.same(sink.table().backfillState(c), expected)) {
            throw new SQLException(
                    "another attempt wrote the target's backfill position meanwhile; resuming from it", "40001");
        }
    }
}
