package io.tributary.meta.ddl;

import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.storage.Keyspace;
import io.tributary.storage.PinnedSnapshot;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.runtime.StreamRuntime;
import io.tributary.stream.upstream.LocalUpstreamTable;
import java.util.List;

/**
 * The server's side of a view job whose snapshot phase runs on a worker (docs/ARCHITECTURE.md,
 * Remote jobs): serves the job's pinned snapshot to the worker, takes the worker's state over
 * ({@link #adopt}), or lets the paused job read its snapshot here ({@link #resumeLocally}). The
 * jobs themselves are {@link ViewBackfills}'; this class only moves them out of, or past, their
 * paused state. Thread-safe.
 */
public final class RemoteViewAdoption {
    private final ViewBackfills backfills;
    private final BarrierManager barriers;
    private final StateStore store;
    private final StreamRuntime runtime;

    RemoteViewAdoption(ViewBackfills backfills, BarrierManager barriers, StateStore store, StreamRuntime runtime) {
        this.backfills = backfills;
        this.barriers = barriers;
        this.store = store;
        this.runtime = runtime;
    }

    /**
     * Any thread: the jobs whose snapshot phase waits for a worker (launched paused), for their
     * remote jobs to be scheduled, or re-attached after a restart.
     */
    List<ViewBackfills.Job> awaitingRemote() {
        return backfills.jobs().stream().filter(j -> j.awaitingRemote).toList();
    }

    /**
     * A remote snapshot phase gave up (no worker, or the worker failed) and the job may fall back:
     * it reads its snapshot here from now on, starting from the last checkpoint the workers
     * committed ({@code checkpoint}, empty when none did), and a restart no longer waits for a
     * worker. The results thread of {@link RemoteViewSnapshots}, like {@link #adopt}.
     *
     * @return the snapshot rows the checkpoint had read; -1 when the job was not waiting for a worker
     * @throws java.sql.SQLException when the checkpoint cannot be read (the job stays paused)
     */
    long resumeLocally(int viewId, StagedState checkpoint) throws InterruptedException, java.sql.SQLException {
        ViewBackfills.Job job = backfills.job(viewId).orElse(null);
        if (job == null || !job.awaitingRemote) {
            return -1;
        }
        long rows = loadCheckpoint(viewId, checkpoint);
        return rows >= 0 && relaunch(viewId) ? rows : -1;
    }

    /**
     * Stops job {@code viewId} and replaces its state and positions with a checkpoint: the groups
     * of state changes and positions an earlier run committed, in order ({@code null} values are
     * deletions; position keys are of table {@link ViewSnapshotJob#POSITIONS_TABLE} and are moved
     * to this job's progress table and snapshot epoch). The job stays stopped until {@link
     * #relaunch}; a crash meanwhile restarts it from what was loaded. One caller at a time per job.
     *
     * @return how many snapshot rows the checkpoint's positions have read; -1 when there is no such job
     * @throws TributaryException 22023 when a key is of another table
     */
    long loadCheckpoint(int viewId, StagedState checkpoint) throws InterruptedException, java.sql.SQLException {
        ViewBackfills.Job job = backfills.job(viewId).orElse(null);
        if (job == null) {
            return -1;
        }
        // stopped at a boundary, so no checkpoint of its own overwrites what is loaded below
        barriers.awaitCommitted(barriers.stageAtBoundary(buffer -> runtime.stop(viewId)));
        clearState(job);
        WriteBuffer positions = store.newWriteBuffer();
        positions.deleteRange(
                Keyspace.DATA,
                TableKeys.tableStart(job.record.progressTableId()),
                TableKeys.tableEnd(job.record.progressTableId()));
        store.write(positions);
        StateIngest ingest = new StateIngest(job, true);
        checkpoint.read(ingest);
        ingest.flush();
        return ingest.positionRows.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Starts stopped job {@code viewId} again from what its tables hold (see {@link
     * #loadCheckpoint}), reading here: a job that waited for a worker no longer does, durably.
     *
     * @return false when the job is gone
     */
    boolean relaunch(int viewId) throws InterruptedException {
        boolean[] launched = {false};
        barriers.awaitCommitted(barriers.stageAtBoundary(buffer -> {
            ViewBackfills.Job job = backfills.job(viewId).orElse(null);
            if (job == null) {
                return;
            }
            if (job.awaitingRemote) {
                buffer.delete(Keyspace.CATALOG, ViewBackfills.remoteKey(viewId));
                job.awaitingRemote = false;
            }
            job.rate.set(job.record.rateLimit());
            backfills.launch(job);
            launched[0] = true;
        }));
        return launched[0];
    }

    /** Feeds a worker's staged state, pair by pair, in the order it was staged; see {@link #adopt}. */
    @FunctionalInterface
    public interface StagedState {
        void read(io.tributary.meta.jobs.JobPlacement.PairConsumer out) throws java.sql.SQLException;
    }

    /**
     * Takes over the state a worker computed from view {@code viewId}'s snapshot. The state is
     * streamed into the view's tables in bounded batches while the job stays paused (nothing reads
     * or writes those tables meanwhile; they are cleared first, so a takeover interrupted by a
     * crash or an error starts over clean). Then, at an epoch boundary, every vnode's position
     * "snapshot read, change log next" and the marker {@code marker} are written in one durable
     * write and the job starts again from there, going on with the change logs after its snapshot
     * epoch. Once per job: a second result (a late attempt, a re-attach after a restart) finds the
     * marker and is ignored. Returns once the boundary has passed. The results thread only (one at
     * a time, and never together with {@link #resumeLocally}).
     *
     * @param state the state, as keys of this server's tables of the view (checked here)
     * @return whether it took the state over
     * @throws TributaryException 22023 when a key is not of one of the view's state tables
     * @throws java.sql.SQLException when the staged state cannot be read
     */
    boolean adopt(int viewId, String marker, StagedState state) throws InterruptedException, java.sql.SQLException {
        ViewBackfills.Job job = backfills.job(viewId).orElse(null);
        if (job == null || !job.awaitingRemote || adopted(viewId)) {
            return false;
        }
        if (!empty(job)) {
            // a takeover cut short, or a checkpoint loaded before a crash re-paused the job
            clearState(job);
        }
        try (WorkerStateFiles files = new WorkerStateFiles(store, job.view.name(), stateTables(job))) {
            if (files.available()) {
                state.read(files);
                files.ingest();
            } else {
                StateIngest ingest = new StateIngest(job, false);
                state.read(ingest);
                ingest.flush();
            }
        }
        Adopt change = new Adopt(job, marker);
        barriers.awaitCommitted(barriers.stageAtBoundary(change));
        if (!change.adopted && backfills.job(viewId).isEmpty()) {
            // dropped while the state streamed in: what landed after its removal goes too
            clearState(job);
        }
        return change.adopted;
    }

    private boolean adopted(int viewId) {
        try (ReadView view = store.latest()) {
            return view.get(Keyspace.CATALOG, ViewBackfills.adoptedKey(viewId)) != null;
        }
    }

    /**
     * Whether the view's table and state tables hold nothing. A paused job's tables usually do:
     * clearing them anyway would leave range deletions in the memtable over the keys about to be
     * ingested, which makes the ingestion flush the memtable while the writers wait.
     */
    private boolean empty(ViewBackfills.Job job) {
        try (ReadView view = store.latest()) {
            for (int table : stateTables(job)) {
                try (io.tributary.storage.KvIterator it =
                        view.scan(Keyspace.DATA, TableKeys.tableStart(table), TableKeys.tableEnd(table))) {
                    if (it.next()) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** Whether {@code key} is of one of {@code tables}. */
    static boolean ofTables(int[] tables, byte[] key) {
        if (key.length < TableKeys.PREFIX_LENGTH) {
            return false;
        }
        int table = java.nio.ByteBuffer.wrap(key, 0, 4).getInt();
        for (int t : tables) {
            if (t == table) {
                return true;
            }
        }
        return false;
    }

    /** 22023: a worker's state for view {@code viewName} holds a key of another table (or no value). */
    static TributaryException foreignState(String viewName) {
        return new TributaryException(
                SqlState.INVALID_PARAMETER_VALUE,
                "the worker's state for materialized view \"" + viewName
                        + "\" holds a key of another table; it is not taken over");
    }

    /** Durably empties the view's table and state tables of a paused job (no other writer touches them). */
    private void clearState(ViewBackfills.Job job) {
        WriteBuffer clear = store.newWriteBuffer();
        stageClear(clear, job.view);
        store.write(clear);
    }

    /**
     * Stages into {@code buffer} the emptying of {@code view}'s table and state tables, which a
     * takeover fills: here before one, and at recovery for a job whose snapshot phase starts over
     * in the server ({@link ViewBackfills#recover}). Stateless.
     */
    static void stageClear(WriteBuffer buffer, TableDef view) {
        for (int table : stateTables(view)) {
            buffer.deleteRange(Keyspace.DATA, TableKeys.tableStart(table), TableKeys.tableEnd(table));
        }
    }

    private static int[] stateTables(ViewBackfills.Job job) {
        return stateTables(job.view);
    }

    private static int[] stateTables(TableDef view) {
        int[] state = view.stateTableIds();
        int[] out = java.util.Arrays.copyOf(state, state.length + 1);
        out[state.length] = view.id();
        return out;
    }

    /** Writes streamed state pairs into the store in batches of bounded size, checking each key's table. */
    private final class StateIngest implements io.tributary.meta.jobs.JobPlacement.PairConsumer {
        private static final long BATCH_BYTES = 16L << 20;
        private final ViewBackfills.Job job;
        private final int[] tables;
        /** A checkpoint: deletions and vnode positions besides the state. */
        private final boolean checkpoint;

        /** A checkpoint's latest position per vnode and source: snapshot rows read. */
        final java.util.Map<java.nio.ByteBuffer, Long> positionRows = new java.util.HashMap<>();

        private WriteBuffer batch = store.newWriteBuffer();
        private long batchBytes;

        StateIngest(ViewBackfills.Job job, boolean checkpoint) {
            this.job = job;
            this.tables = stateTables(job);
            this.checkpoint = checkpoint;
        }

        @Override
        public void accept(byte[] key, byte[] value) {
            int table = key.length < TableKeys.PREFIX_LENGTH
                    ? 0
                    : java.nio.ByteBuffer.wrap(key, 0, 4).getInt();
            if (checkpoint && table == ViewSnapshotJob.POSITIONS_TABLE) {
                int vnode = TableKeys.vnodeOf(key);
                key = key.clone();
                java.nio.ByteBuffer.wrap(key).putInt(0, job.record.progressTableId());
                positionRows.put(
                        java.nio.ByteBuffer.wrap(key),
                        value == null ? 0 : io.tributary.stream.backfill.SnapshotTakeover.snapshotRows(vnode, value));
                if (value != null) {
                    value = io.tributary.stream.backfill.SnapshotTakeover.rebase(
                            vnode, value, job.record.snapshotEpoch());
                }
            } else if (!ofTables(tables, key) || (value == null && !checkpoint)) {
                throw foreignState(job.view.name());
            }
            if (value == null) {
                batch.delete(Keyspace.DATA, key);
            } else {
                batch.put(Keyspace.DATA, key, value);
                batchBytes += value.length;
            }
            batchBytes += key.length;
            if (batchBytes >= BATCH_BYTES) {
                flush();
            }
        }

        void flush() {
            store.write(batch);
            batch = store.newWriteBuffer();
            batchBytes = 0;
        }
    }

    /** The takeover of a worker's streamed-in state (see {@link #adopt}), done at staging under the barrier lock. */
    private final class Adopt implements EpochChange {
        private final ViewBackfills.Job job;
        private final String marker;
        private boolean adopted;

        Adopt(ViewBackfills.Job job, String marker) {
            this.job = job;
            this.marker = marker;
        }

        @Override
        public void stage(WriteBuffer buffer) {
            if (backfills.job(job.id()).orElse(null) != job || !job.awaitingRemote || adopted(job.id())) {
                return;
            }
            // the paused job read nothing: its positions are at the snapshot's start, its state is the worker's
            runtime.stop(job.id());
            WriteBuffer state = store.newWriteBuffer();
            io.tributary.stream.backfill.SnapshotTakeover.stageSnapshotRead(
                    state,
                    job.record.progressTableId(),
                    io.tributary.stream.backfill.SnapshotTakeover.sources(job.plan.root()),
                    job.record.snapshotEpoch());
            state.put(
                    Keyspace.CATALOG,
                    ViewBackfills.adoptedKey(job.id()),
                    marker.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            // durable on its own, before this epoch: the job's change-log recorders are replaced in this
            // same staging, so no epoch passes unrecorded, and a crash after it resumes from these positions
            store.write(state);
            job.awaitingRemote = false;
            job.rate.set(job.record.rateLimit());
            backfills.launch(job);
            adopted = true;
        }
    }

    /**
     * A piece of job {@code snapshotId}'s pinned snapshot of one relation, for a worker computing
     * the view's snapshot phase ({@code COPY tributary_snapshot(...)}): up to {@code limit} rows of
     * vnodes {@code vnode} through {@code lastVnode}, in vnode and then key order, starting after
     * {@code afterKey} in the first vnode (at its start when null), each as its stored value and its
     * primary key, so the worker stores them as this server does. Fewer than {@code limit} rows
     * means those vnodes are read whole; else the worker goes on after the last row (its vnode is
     * its key's). A piece spans vnodes because a view's snapshot has few rows per vnode: one
     * statement per vnode was 256 statements per relation, each with its fixed cost on a session
     * thread of background priority beside the writers.
     * PostgreSQL's binary COPY body (header, one tuple of two bytea fields per row, trailer),
     * written straight from the stored bytes into one array: no per-row objects beyond the two the
     * stream hands out, nothing hex-encoded. Reads a pinned RocksDB snapshot and takes no lock a
     * writer takes. Session threads.
     *
     * @throws TributaryException 55000 when no job waits for a worker with that snapshot, 22023 for
     *     a malformed id or vnodes out of range
     */
    io.tributary.meta.sink.SnapshotBinaryPiece snapshotPiece(
            String snapshotId, int vnode, int lastVnode, byte[] afterKey, int limit) {
        String[] parts = snapshotId.split(":");
        if (parts.length != 4
                || vnode < 0
                || lastVnode < vnode
                || lastVnode >= io.tributary.common.VirtualNodes.COUNT
                || limit < 1
                || !parts[1].matches("[0-9]{1,9}")
                || !parts[2].matches("[0-9]{1,9}")) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "tributary_snapshot needs a snapshot id view:<view>:<relation>:<epoch>, vnodes in [0, "
                            + io.tributary.common.VirtualNodes.COUNT + "), the last not before the first,"
                            + " and a positive limit");
        }
        int viewId = Integer.parseInt(parts[1]);
        int relationId = Integer.parseInt(parts[2]);
        ViewBackfills.Job job = backfills.job(viewId).orElse(null);
        TableDef relation = backfills.relationById(relationId);
        if (job == null
                || !job.awaitingRemote
                || !String.valueOf(job.record.snapshotEpoch()).equals(parts[3])
                || relation == null
                || java.util.Arrays.stream(job.view.dependsOn()).noneMatch(r -> r == relationId)) {
            throw new TributaryException(
                    SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                    "snapshot " + snapshotId + " is not exported: its view was dropped, or its snapshot phase is"
                            + " done or runs in the server");
        }
        StoredRowsCopy body = new StoredRowsCopy();
        int rows = 0;
        try (LocalUpstreamTable upstream = LocalUpstreamTable.open(
                store,
                new PinnedSnapshot(job.record.pin(), job.record.snapshotEpoch()),
                relationId,
                relation.columnTypes())) {
            for (int v = vnode; v <= lastVnode && rows < limit; v++) {
                try (io.tributary.stream.RowStream stream =
                        upstream.snapshot(v, job.record.snapshotEpoch(), v == vnode ? afterKey : null)) {
                    while (rows < limit && stream.next()) {
                        body.row(stream.encodedRow(), stream.pk());
                        rows++;
                    }
                }
            }
        }
        return new io.tributary.meta.sink.SnapshotBinaryPiece(2, body.finish(), rows);
    }
}
