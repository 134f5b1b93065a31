package io.tributary.stream.runtime;

import io.tributary.common.types.DataType;
import io.tributary.plan.MaterializeNode;
import io.tributary.plan.SourceNode;
import io.tributary.storage.ChangeLogWriter;
import io.tributary.storage.StateStore;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;
import io.tributary.stream.UpstreamTable;
import io.tributary.stream.WatermarkReader;
import io.tributary.stream.backfill.BackfillCoordinator;
import io.tributary.stream.backfill.BackfillProgress;
import io.tributary.stream.backfill.BackfillRate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The streaming engine of one database: the running view jobs, the change feeds of the tables and
 * views they read, the change logs kept for views being backfilled, and the collection of every
 * live actor's state writes at each barrier.
 *
 * <p>Threading contract: {@link #launch}, {@link #launchBackfill}, {@link #join}, {@link #stop},
 * {@link #emit} and {@link #barrier} are called under the barrier manager's lock, so they never
 * overlap; {@link #emit} from the DML thread staging a statement, {@link #barrier} from the thread
 * committing an epoch. Everything emitted before a barrier belongs to that barrier's epoch.
 * {@link #progress} may be called from any thread.
 */
public final class StreamRuntime implements AutoCloseable {
    private final StateStore store;
    private final long checkpointIntervalMs;
    private final BarrierCollector collector = new BarrierCollector();
    private final Map<Integer, RelationFeed> tableFeeds = new ConcurrentHashMap<>();
    private final Map<Integer, StreamJob> jobs = new ConcurrentHashMap<>();
    /** Per upstream relation id, the epoch through which its change log was last truncated. */
    private final Map<Integer, Long> truncatedThrough = new HashMap<>();
    /** The key watches attached (few: one per running index build); changed under the barrier lock. */
    private final List<ChangedKeyWatch> watches = new ArrayList<>();
    /** Change logs kept for consumers outside the jobs (sinks), by relation id. */
    private final Map<Integer, List<LogKeeper>> keepers = new ConcurrentHashMap<>();
    /**
     * The relations whose change log the epoch {@link #barrier} last wrote rows to (the first
     * {@link #changedCount} entries), told to their keepers by {@link #committed} once that epoch
     * is durable. Committing thread only.
     */
    private int[] changedRelations = new int[8];

    private int changedCount;
    /** The epoch {@link #changedRelations} belongs to; -1 when none is pending. */
    private long changedEpoch = -1;

    /** Called by a backfilling job's coordinator thread; see {@link BackfillCoordinator.Listener}. */
    public interface BackfillListener {
        /** The backfill of view {@code viewId} has caught up: join it now. @return whether it joined */
        boolean caughtUp(int viewId) throws InterruptedException;

        /** The backfill of view {@code viewId} failed and cannot go on. */
        void failed(int viewId, Throwable error);
    }

    /** The table watermarks operators clean state by; none until {@link #readWatermarksFrom}. */
    private volatile WatermarkReader watermarks = WatermarkReader.NONE;

    /** See {@link #setFollowerGate}; null until set (then nothing gates the followers). */
    private volatile java.util.concurrent.locks.Lock followerGate;

    /**
     * The lock under which this database stages changes and commits epochs: a live job's sources
     * that follow another database's log read and push their rows only while holding it (tried,
     * never waited for), so those rows enter within one open epoch, as staged rows do. Set once,
     * before any job is launched.
     */
    public void setFollowerGate(java.util.concurrent.locks.Lock gate) {
        this.followerGate = gate;
    }

    /** @param checkpointIntervalMs how often a backfilling job checkpoints */
    public StreamRuntime(StateStore store, long checkpointIntervalMs) {
        this.store = store;
        this.checkpointIntervalMs = checkpointIntervalMs;
    }

    /** Sets where jobs launched from now on read table watermarks; called once, before the first launch. */
    public void readWatermarksFrom(WatermarkReader reader) {
        this.watermarks = reader;
    }

    /** Whether some job reads table {@code tableId}: only then does DML need to emit its changes. */
    public boolean hasSubscribers(int tableId) {
        RelationFeed feed = tableFeeds.get(tableId);
        return feed != null && feed.hasSubscribers();
    }

    /** DML thread, under the barrier lock: a statement's changes to a table, in order. */
    public void emit(int tableId, Chunk chunk) {
        RelationFeed feed = tableFeeds.get(tableId);
        if (feed != null) {
            feed.slot(0).dispatch(chunk);
        }
    }

    /**
     * Builds and starts the live job maintaining a view from the view's committed state. Under the
     * barrier lock, between epochs.
     *
     * @param stateTableIds the view's state table ids in plan order
     */
    public void launch(MaterializeNode root, int[] stateTableIds, int parallelism) {
        JobBuilder.Built built = build(root, stateTableIds, parallelism, null, new FailureRouter(collector::failed));
        jobs.put(root.relationId(), built.job());
        for (LogKeeper k : keepers.getOrDefault(root.relationId(), List.of())) {
            k.attach(built.job().feed());
        }
        built.job().start();
    }

    /**
     * Like {@link #launch(MaterializeNode, int[], int)} for a view that reads relations of other
     * databases: those sources ({@code followed}, by relation id) stay log consumers of their
     * upstreams for the life of the job, each actor reading them between this database's barriers
     * and writing their per-vnode positions to {@code progressTableId} with its state at every
     * barrier; the job's other sources are live feeds. Under the barrier lock, between epochs; the
     * caller closes the upstreams once the job is stopped.
     */
    public void launch(
            MaterializeNode root,
            int[] stateTableIds,
            int parallelism,
            Map<Integer, UpstreamTable> followed,
            int progressTableId,
            BackfillRate rate) {
        JobBuilder.Built built = build(
                root,
                stateTableIds,
                parallelism,
                new JobBuilder.Backfill(followed, progressTableId, rate, true, followerGate),
                new FailureRouter(collector::failed));
        built.job().follow(built.backfills(), built.sourceRelations());
        jobs.put(root.relationId(), built.job());
        for (LogKeeper k : keepers.getOrDefault(root.relationId(), List.of())) {
            k.attach(built.job().feed());
        }
        built.job().start();
    }

    /**
     * Per relation a view's job follows by its log (see {@link #launch(MaterializeNode, int[], int,
     * Map, int, BackfillRate)}, and a joined backfill's sources that never join), the epoch through
     * which every vnode has consumed it as of the job's last barrier; empty when the view has no
     * such job. Read right after an epoch commits, on the committing thread, it is what that commit
     * holds. Any thread.
     */
    public Map<Integer, Long> followedThrough(int viewId) {
        StreamJob job = jobs.get(viewId);
        return job == null ? Map.of() : job.followedThrough();
    }

    /**
     * Keeps the change log of relation {@code relationId} for a consumer outside the jobs (a sink),
     * from the next epoch on, until {@link #releaseLog}: every epoch's net changes are written in
     * that epoch's commit, and the log is truncated only through what every consumer has
     * {@linkplain LogKeeper#consumedThrough consumed}. For a table the log starts at once; for a
     * materialized view, once its live job runs (at once when it runs now, else when it is
     * launched). Under the barrier lock, between epochs (or before the barrier manager starts).
     *
     * @param keyColumns the relation's primary key columns; {@code keyTypes} their types
     * @param columnTypes the types of the relation's full rows, as stored
     */
    public LogKeeper keepLog(
            int relationId, boolean view, int[] keyColumns, List<DataType> keyTypes, List<DataType> columnTypes) {
        LogKeeper keeper = new LogKeeper(relationId, view, keyColumns, keyTypes, columnTypes);
        keepers.computeIfAbsent(relationId, id -> new java.util.concurrent.CopyOnWriteArrayList<>())
                .add(keeper);
        StreamJob job = jobs.get(relationId);
        if (job != null) {
            keeper.attach(job.feed());
        } else if (!view) {
            keeper.attach(tableFeeds.computeIfAbsent(
                    relationId, id -> new RelationFeed(id, keyColumns, keyTypes, columnTypes, 1)));
        }
        return keeper;
    }

    /**
     * Starts listing the keys of table {@code tableId}'s rows that change from the next staged
     * change on (see {@link ChangedKeyWatch}); under the barrier lock.
     *
     * @param keyColumns the table's primary key columns; {@code keyTypes} their types
     * @param columnTypes the types of the table's full rows, as stored
     */
    public ChangedKeyWatch watchKeys(
            int tableId, int[] keyColumns, List<DataType> keyTypes, List<DataType> columnTypes) {
        ChangedKeyWatch watch = new ChangedKeyWatch(tableId, keyColumns, keyTypes);
        tableFeeds
                .computeIfAbsent(tableId, id -> new RelationFeed(id, keyColumns, keyTypes, columnTypes, 1))
                .attachRecorders(List.of(watch));
        watches.add(watch);
        return watch;
    }

    /**
     * Tells the watches of table {@code tableId} that it was truncated, after the TRUNCATE sent
     * its rows' deletes ({@link ChangedKeyWatch#truncated}); under the barrier lock.
     */
    public void truncated(int tableId) {
        for (ChangedKeyWatch watch : watches) {
            if (watch.tableId() == tableId) {
                watch.truncated();
            }
        }
    }

    /** Stops {@code watch}; under the barrier lock. Safe to call more than once. */
    public void releaseWatch(ChangedKeyWatch watch) {
        watches.remove(watch);
        RelationFeed feed = tableFeeds.get(watch.tableId());
        if (feed != null) {
            feed.detachRecorders(List.of(watch));
        }
        tableFeeds.values().removeIf(f -> !f.hasSubscribers());
    }

    /** Stops keeping a log for {@code keeper}; under the barrier lock, between epochs. */
    public void releaseLog(LogKeeper keeper) {
        List<LogKeeper> list = keepers.get(keeper.relationId);
        if (list != null) {
            list.remove(keeper);
            if (list.isEmpty()) {
                keepers.remove(keeper.relationId);
            }
        }
        keeper.detach();
        tableFeeds.values().removeIf(f -> !f.hasSubscribers());
    }

    /**
     * A change log kept for one consumer outside the jobs. The consumer reads the committed log
     * from the store and reports what it has durably consumed with {@link #consumedThrough}, from
     * its own thread.
     */
    public static final class LogKeeper {
        private final int relationId;
        private final int[] keyColumns;
        private final List<DataType> keyTypes;
        private final List<DataType> columnTypes;
        private RelationFeed feed;
        private List<ChangeLogRecorder> recorders = List.of();
        private volatile long consumed;
        /** See {@link #changedAt}. */
        private volatile long changedAt;
        /** See {@link #onChange}; null when no consumer waits. */
        private volatile Runnable onChange;

        private LogKeeper(
                int relationId, boolean view, int[] keyColumns, List<DataType> keyTypes, List<DataType> columnTypes) {
            this.relationId = relationId;
            this.keyColumns = keyColumns;
            this.keyTypes = keyTypes;
            this.columnTypes = columnTypes;
        }

        /**
         * The consumer has durably consumed the log through {@code epoch} (e.g. the target
         * committed it): it may be truncated through there at a later commit. Any thread.
         */
        public void consumedThrough(long epoch) {
            if (epoch > consumed) {
                consumed = epoch;
            }
        }

        public int relationId() {
            return relationId;
        }

        /**
         * The latest durable epoch in which the relation's change log got rows, among the epochs
         * committed since this keeper was made; 0 when none has. A consumer that has read the log
         * through epoch {@code E} (with {@code E} at most the committed epoch it read first) has
         * nothing new to read while this stays at or below {@code E}: it is raised right after
         * such an epoch's commit, before {@link #onChange} runs. What was logged before this
         * keeper was made (before a restart) is not counted: read the log once at start. Any thread.
         */
        public long changedAt() {
            return changedAt;
        }

        /**
         * Sets what to run each time {@link #changedAt} is raised, or {@code null} for nothing. It
         * runs on the committing thread with the barrier lock held, so it must only wake its
         * consumer (no I/O, no waiting). The consumer's thread, while it reads this log.
         */
        public void onChange(Runnable wakeup) {
            this.onChange = wakeup;
        }

        private void changed(long epoch) {
            changedAt = epoch;
            Runnable wakeup = onChange;
            if (wakeup != null) {
                wakeup.run();
            }
        }

        private void attach(RelationFeed to) {
            detach();
            List<ChangeLogRecorder> slots = new ArrayList<>();
            for (int i = 0; i < to.slotCount(); i++) {
                slots.add(new ChangeLogRecorder(relationId, keyColumns, keyTypes, columnTypes));
            }
            to.attachRecorders(slots);
            feed = to;
            recorders = slots;
        }

        private void detach() {
            if (feed != null) {
                feed.detachRecorders(recorders);
                feed = null;
                recorders = List.of();
            }
        }
    }

    /**
     * Builds and starts the job of a view being created (or resuming its creation), which
     * backfills from {@code upstreams}' snapshots and change logs, checkpointing on its own, and
     * asks {@code listener} to {@link #join} it once it has caught up. From now on the upstreams'
     * changes are logged for it. Under the barrier lock, between epochs; the upstreams are closed
     * by the caller once the job is stopped or joined.
     *
     * @param upstreams per relation id the view reads, its snapshot and log
     * @param progressTableId where the per-vnode positions are kept
     */
    public void launchBackfill(
            MaterializeNode root,
            int[] stateTableIds,
            int parallelism,
            Map<Integer, UpstreamTable> upstreams,
            int progressTableId,
            BackfillRate rate,
            BackfillListener listener) {
        int viewId = root.relationId();
        FailureRouter failures = new FailureRouter(null);
        JobBuilder.Built built = build(
                root,
                stateTableIds,
                parallelism,
                new JobBuilder.Backfill(upstreams, progressTableId, rate, false, followerGate),
                failures);
        List<UpstreamTable> bySource = new ArrayList<>();
        for (int relation : built.sourceRelations()) {
            bySource.add(upstreams.get(relation));
        }
        BackfillCoordinator coordinator = new BackfillCoordinator(
                root.relationName(),
                store,
                checkpointIntervalMs,
                built.sourceChannels(),
                built.job().actorCount(),
                built.backfills(),
                bySource,
                built.sourceRelations(),
                built.job()::heldChanges,
                new BackfillCoordinator.Listener() {
                    @Override
                    public boolean caughtUp() throws InterruptedException {
                        return listener.caughtUp(viewId);
                    }

                    @Override
                    public void failed(Throwable error) {
                        listener.failed(viewId, error);
                    }
                });
        failures.route((actor, error) -> listener.failed(viewId, error));
        Map<RelationFeed, List<ChangeLogRecorder>> logs = new LinkedHashMap<>();
        for (RelationFeed.Subscription s : built.job().subscriptions()) {
            RelationFeed feed = s.feed();
            if (!logs.containsKey(feed)) {
                List<ChangeLogRecorder> slots = new ArrayList<>();
                for (int i = 0; i < feed.slotCount(); i++) {
                    slots.add(new ChangeLogRecorder(
                            feed.relationId(), feed.keyColumns(), feed.keyTypes(), feed.columnTypes()));
                }
                logs.put(feed, slots);
            }
        }
        built.job().backfillWith(coordinator, logs);
        built.job().follow(built.backfills(), built.sourceRelations());
        jobs.put(viewId, built.job());
        built.job().start();
    }

    /** Builds a job's actors, undoing what was built when that fails halfway. */
    private JobBuilder.Built build(
            MaterializeNode root,
            int[] stateTableIds,
            int parallelism,
            JobBuilder.Backfill backfill,
            FailureRouter failures) {
        JobBuilder builder = new JobBuilder(
                root.relationName(), store, collector, this::feedOf, parallelism, backfill, failures, watermarks);
        try {
            return builder.build(root, stateTableIds);
        } catch (RuntimeException | Error e) {
            builder.abandon();
            throw e;
        }
    }

    /**
     * Joins a backfilling view's job to the live flow after the last committed epoch (see
     * {@link StreamJob#join}). Under the barrier lock, at an epoch boundary.
     *
     * @return false when the view has no backfilling job (stopped or dropped meanwhile)
     */
    public boolean join(int viewId) {
        StreamJob job = jobs.get(viewId);
        if (job == null || !job.backfilling()) {
            return false;
        }
        job.join(store.committedEpoch(), collector);
        return true;
    }

    /** The backfill progress of a view being created, or null when it has no backfilling job. Any thread. */
    public BackfillProgress progress(int viewId) {
        StreamJob job = jobs.get(viewId);
        return job == null ? null : job.progress();
    }

    /**
     * The rows each operator of view {@code viewId}'s running job took in and gave out since the
     * job started (this server process), in plan graph order; empty when the view runs no job. Any
     * thread; the counts are read without synchronizing with the actors, so they may lag a chunk.
     */
    public List<OperatorRows> operatorRows(int viewId) {
        StreamJob job = jobs.get(viewId);
        return job == null ? List.of() : job.operatorRows();
    }

    /** Stops a view's job; under the barrier lock, between epochs. No-op for an unknown view. */
    public void stop(int viewId) {
        StreamJob job = jobs.remove(viewId);
        if (job != null) {
            job.stop();
            tableFeeds.values().removeIf(f -> !f.hasSubscribers());
        }
    }

    /** Stops every job, e.g. to rebuild them all from committed state after a failed epoch. */
    public void stopAll() {
        for (Integer id : List.copyOf(jobs.keySet())) {
            stop(id);
        }
        // what the kept logs hold belongs to the discarded epoch: the relations' writers start over too
        for (List<LogKeeper> list : keepers.values()) {
            for (LogKeeper k : list) {
                k.recorders.forEach(ChangeLogRecorder::reset);
            }
        }
        collector.reset();
    }

    /**
     * Committing thread, under the barrier lock: sends the barrier of {@code epoch} into every
     * table feed, waits until every live actor has passed it, and writes their state changes and
     * the epoch's change logs to {@code buffer}; then truncates each change log up to where every
     * backfill reading it has durably consumed it.
     *
     * @throws io.tributary.common.TributaryException when an actor failed; the epoch must not commit
     */
    public void barrier(long epoch, WriteBuffer buffer) {
        // a failed epoch's relations are never told: the next barrier starts the list afresh
        changedCount = 0;
        changedEpoch = epoch;
        if (jobs.isEmpty() && keepers.isEmpty()) {
            return;
        }
        Barrier barrier = new Barrier(epoch);
        if (jobs.isEmpty()) {
            for (RelationFeed feed : tableFeeds.values()) {
                feed.slot(0).barrier(barrier);
            }
        } else {
            collector.begin(epoch);
            for (RelationFeed feed : tableFeeds.values()) {
                feed.slot(0).barrier(barrier);
            }
            DataWrites sink = new DataWrites(buffer);
            for (EpochWrites writes : collector.await()) {
                writes.replay(sink);
            }
        }
        Map<Integer, Long> needed = new HashMap<>();
        // consumers of the same relation record the same changes: one of them writes the log
        Map<Integer, Object> logWriter = new HashMap<>();
        for (List<LogKeeper> list : keepers.values()) {
            for (LogKeeper k : list) {
                for (ChangeLogRecorder r : k.recorders) {
                    if (logWriter.computeIfAbsent(r.relationId(), id -> k) == k) {
                        if (r.drainInto(epoch, buffer)) {
                            changed(r.relationId());
                        }
                    } else {
                        r.discard(epoch);
                    }
                }
                needed.merge(k.relationId, k.consumed, Math::min);
            }
        }
        for (StreamJob job : jobs.values()) {
            for (ChangeLogRecorder r : job.recorders()) {
                if (logWriter.computeIfAbsent(r.relationId(), id -> job) == job) {
                    if (r.drainInto(epoch, buffer)) {
                        changed(r.relationId());
                    }
                } else {
                    r.discard(epoch);
                }
            }
            BackfillProgress p = job.progress();
            if (p != null) {
                p.consumedThrough().forEach((relation, through) -> needed.merge(relation, through, Math::min));
            }
        }
        for (Map.Entry<Integer, Long> e : needed.entrySet()) {
            long through = e.getValue();
            if (through != Long.MAX_VALUE && through > truncatedThrough.getOrDefault(e.getKey(), 0L)) {
                ChangeLogWriter.truncate(buffer, e.getKey(), through);
                truncatedThrough.put(e.getKey(), through);
            }
        }
    }

    /** Notes that the epoch being committed writes rows to {@code relationId}'s change log. */
    private void changed(int relationId) {
        for (int i = 0; i < changedCount; i++) {
            if (changedRelations[i] == relationId) {
                return;
            }
        }
        if (changedCount == changedRelations.length) {
            changedRelations = java.util.Arrays.copyOf(changedRelations, changedCount * 2);
        }
        changedRelations[changedCount++] = relationId;
    }

    /**
     * Committing thread, under the barrier lock, once {@code epoch} is durable (a commit listener,
     * after {@link #barrier} wrote that epoch): tells the keepers of every relation whose change
     * log the epoch wrote rows to ({@link LogKeeper#changedAt}), so their consumers read the log
     * when it changed instead of after every epoch. Does nothing for an epoch {@link #barrier} did
     * not write last (one that failed, or a commit made without it).
     */
    public void committed(long epoch) {
        if (epoch != changedEpoch) {
            return;
        }
        for (int i = 0; i < changedCount; i++) {
            List<LogKeeper> list = keepers.get(changedRelations[i]);
            if (list != null) {
                for (LogKeeper k : list) {
                    k.changed(epoch);
                }
            }
        }
        changedCount = 0;
        changedEpoch = -1;
    }

    /** The relations whose change logs some backfilling job still reads. */
    public java.util.Set<Integer> loggedRelations() {
        java.util.Set<Integer> out = new java.util.HashSet<>(keepers.keySet());
        for (StreamJob job : jobs.values()) {
            for (ChangeLogRecorder r : job.recorders()) {
                out.add(r.relationId());
            }
        }
        return out;
    }

    private RelationFeed feedOf(SourceNode source) {
        StreamJob upstream = jobs.get(source.relationId());
        if (upstream != null) {
            return upstream.feed();
        }
        return tableFeeds.computeIfAbsent(
                source.relationId(),
                id -> new RelationFeed(
                        id,
                        source.streamKey(),
                        JobBuilder.types(source.fields(), source.streamKey()),
                        JobBuilder.types(source.fields(), null),
                        1));
    }

    @Override
    public void close() {
        stopAll();
    }
}
