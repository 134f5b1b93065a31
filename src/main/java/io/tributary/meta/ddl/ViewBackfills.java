package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.plan.ViewPlan;
import io.tributary.storage.ChangeLogWriter;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.PinnedSnapshot;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.UpstreamTable;
import io.tributary.stream.backfill.BackfillProgress;
import io.tributary.stream.backfill.BackfillRate;
import io.tributary.stream.runtime.StreamRuntime;
import io.tributary.stream.upstream.LocalUpstreamTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jobs creating materialized views (docs/ARCHITECTURE.md, Backfill): each pins its upstreams' snapshot, runs a
 * backfilling stream job, and at the epoch boundary where it has caught up joins the live flow and
 * becomes an ordinary view, removing its job record, progress, snapshot and change logs in that
 * epoch. Jobs are persisted ({@link BackfillJobRecord}); background jobs resume after a restart,
 * foreground ones are removed. Thread-safe; the methods marked so run under the barrier lock.
 */
final class ViewBackfills implements StreamRuntime.BackfillListener {
    private static final Logger LOG = LoggerFactory.getLogger(ViewBackfills.class);
    private static final String PIN_PREFIX = "backfill-";

    private final CatalogService catalogService;
    private final BarrierManager barriers;
    private final StateStore store;
    private final StreamRuntime runtime;
    private final CrossDatabaseInputs cross;
    private final Map<Integer, Job> jobs = new ConcurrentHashMap<>();
    /** Hears each job that ended without creating its view (cancelled, dropped, failed); see {@link #onRemoved}. */
    private volatile java.util.function.IntConsumer removed = id -> {};

    /** A running job: its record, view, plan, snapshot and rate, and its outcome for waiters. */
    static final class Job {
        volatile BackfillJobRecord record;
        volatile TableDef view;
        final ViewPlan plan;
        final BackfillRate rate;
        final CompletableFuture<Void> done = new CompletableFuture<>();
        Map<Integer, UpstreamTable> upstreams = Map.of();
        /** The cross-database inputs a cancel removed, for the upstream databases to forget once durable. */
        CrossDatabaseInputs.Inputs removedCross;
        /**
         * Its snapshot phase runs on a worker: the job is launched paused (it reads nothing, so its
         * state stays empty) until the worker's state is taken over ({@link RemoteViewAdoption#adopt}) or it falls
         * back to reading here ({@link RemoteViewAdoption#resumeLocally}).
         */
        volatile boolean awaitingRemote;
        /** Whether a remote snapshot phase may fall back to this server (its {@code fallback_to_local}). */
        volatile boolean remoteFallback;
        /** Whether its remote job was placed by this process (at creation, or re-attached at startup). */
        volatile boolean remoteScheduled;
        /** The furthest progress it showed (most rows done); see {@link ViewBackfills#progress}. */
        final java.util.concurrent.atomic.AtomicReference<BackfillProgress> shown =
                new java.util.concurrent.atomic.AtomicReference<>();

        Job(BackfillJobRecord record, TableDef view, ViewPlan plan) {
            this.record = record;
            this.view = view;
            this.plan = plan;
            this.rate = new BackfillRate(record.rateLimit());
        }

        int id() {
            return record.viewId();
        }
    }

    ViewBackfills(
            CatalogService catalogService,
            BarrierManager barriers,
            StateStore store,
            StreamRuntime runtime,
            CrossDatabaseInputs cross) {
        this.cross = cross;
        this.catalogService = catalogService;
        this.barriers = barriers;
        this.store = store;
        this.runtime = runtime;
    }

    private Catalog catalog() {
        return catalogService.catalog();
    }

    /**
     * Under the barrier lock at an epoch boundary: pins the committed state as the snapshot, starts
     * the backfilling job and stages its record. The caller stages the view's catalog record in the
     * same buffer and calls {@link #abandon} if the epoch fails.
     */
    Job start(
            WriteBuffer buffer,
            TableDef view,
            ViewPlan plan,
            String statement,
            boolean background,
            long rateLimit,
            int progressTableId,
            CrossDatabaseInputs.Inputs crossInputs,
            ViewBackfillPlacement remote,
            boolean refresh) {
        if (crossInputs != null) {
            cross.stage(buffer, crossInputs);
        }
        PinnedSnapshot pin = store.pin(PIN_PREFIX + view.id());
        BackfillJobRecord record = new BackfillJobRecord(
                view.id(),
                statement,
                background,
                pin.name(),
                pin.epoch(),
                progressTableId,
                rateLimit,
                System.currentTimeMillis(),
                refresh);
        Job job = new Job(record, view, plan);
        if (remote != null) {
            job.awaitingRemote = true;
            job.remoteFallback = remote.fallbackToLocal();
            job.rate.set(0);
            buffer.put(Keyspace.CATALOG, remoteKey(view.id()), new byte[] {(byte) (remote.fallbackToLocal() ? 1 : 0)});
        }
        try {
            launch(job);
        } catch (RuntimeException | Error e) {
            store.unpin(pin.name());
            throw e;
        }
        buffer.put(Keyspace.CATALOG, BackfillJobRecord.key(view.id()), record.encode());
        jobs.put(view.id(), job);
        return job;
    }

    /** The creation's epoch failed: forget the job (its actors were stopped with all the others). */
    void abandon(Job job) {
        jobs.remove(job.id());
        runtime.stop(job.id());
        closeUpstreams(job);
        store.unpin(job.record.pin());
        cross.abandoned(job.id());
        job.done.completeExceptionally(
                new TributaryException(SqlState.INTERNAL_ERROR, "the epoch creating the job failed"));
    }

    /** Under the barrier lock: (re)starts a job's stream from its committed checkpoint. */
    void launch(Job job) {
        closeUpstreams(job);
        Map<Integer, UpstreamTable> upstreams = new HashMap<>();
        PinnedSnapshot pin = new PinnedSnapshot(job.record.pin(), job.record.snapshotEpoch());
        try {
            if (cross.isCrossView(job.id())) {
                upstreams.putAll(cross.openSnapshots(job.id()));
            }
            for (int relation : job.view.dependsOn()) {
                if (io.tributary.catalog.ForeignRelations.isForeign(relation)) {
                    continue;
                }
                TableDef upstream = relationById(relation);
                if (upstream == null) {
                    throw new TributaryException(
                            SqlState.UNDEFINED_TABLE,
                            "a relation read by materialized view \"" + job.view.name() + "\" was dropped meanwhile");
                }
                upstreams.put(relation, LocalUpstreamTable.open(store, pin, relation, upstream.columnTypes()));
            }
            job.upstreams = upstreams;
            runtime.launchBackfill(
                    job.plan.root(),
                    job.view.stateTableIds(),
                    Math.max(1, job.view.parallelism()),
                    upstreams,
                    job.record.progressTableId(),
                    job.rate,
                    this);
        } catch (RuntimeException | Error e) {
            upstreams.values().forEach(UpstreamTable::close);
            job.upstreams = Map.of();
            throw e;
        }
    }

    /** Under the barrier lock: restarts a job, e.g. with a new parallelism ({@code view} carries it). */
    void relaunch(TableDef view) {
        Job job = jobs.get(view.id());
        runtime.stop(view.id());
        job.view = view;
        launch(job);
    }

    /** Whether view {@code id} is being created. */
    boolean isCreating(int id) {
        return jobs.containsKey(id);
    }

    Optional<Job> job(int id) {
        return Optional.ofNullable(jobs.get(id));
    }

    List<Job> jobs() {
        List<Job> out = new ArrayList<>(jobs.values());
        out.sort(java.util.Comparator.comparingInt(Job::id));
        return out;
    }

    /** Coordinator thread: joins the job to the live flow at the next epoch boundary and waits for that commit. */
    @Override
    public boolean caughtUp(int viewId) throws InterruptedException {
        Job job = jobs.get(viewId);
        if (job == null) {
            return false;
        }
        GoLive change = new GoLive(job);
        barriers.awaitCommitted(barriers.stageAtBoundary(change));
        return change.joined;
    }

    /**
     * A caught-up job joining the live flow at an epoch boundary: its record and progress are
     * removed and the view is created once that is durable. Does nothing if the job was cancelled
     * or replaced meanwhile, or the runtime cannot join it yet.
     */
    private final class GoLive implements EpochChange {
        private final Job job;
        /** Whether staging joined the job. */
        private boolean joined;

        GoLive(Job job) {
            this.job = job;
        }

        @Override
        public void stage(WriteBuffer buffer) {
            if (jobs.get(job.id()) != job) {
                return;
            }
            // its last figure, shown until the commit removes the job (the runtime has none once joined)
            progress(job.id());
            if (!runtime.join(job.id())) {
                return;
            }
            joined = true;
            if (cross.isCrossView(job.id())) {
                // its cross-database sources go on from their positions, in this database's epochs
                buffer.delete(Keyspace.CATALOG, BackfillJobRecord.key(job.id()));
                cross.stageCreated(buffer, job.id());
            } else {
                stageJobRemoval(buffer, job.record);
            }
            dropUnreadLogs(buffer);
        }

        @Override
        public void committed() {
            if (joined) {
                if (cross.isCrossView(job.id())) {
                    // the running job keeps reading the other databases' logs through these
                    cross.created(job.id(), job.upstreams);
                    Map<Integer, UpstreamTable> local = new HashMap<>(job.upstreams);
                    local.keySet().removeIf(io.tributary.catalog.ForeignRelations::isForeign);
                    job.upstreams = local;
                }
                // readable before the foreground CREATE returns, so its next statement can use the view
                catalog().created(job.id());
                finish(job, null);
                LOG.info("materialized view {} is created", job.view.name());
            }
        }
    }

    @Override
    public void failed(int viewId, Throwable error) {
        Thread t = new Thread(
                () -> {
                    try {
                        cancel(
                                viewId,
                                new TributaryException(
                                        SqlState.INTERNAL_ERROR,
                                        "creating the materialized view failed: " + error.getMessage()));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (RuntimeException e) {
                        LOG.error("removing the failed job {} failed", viewId, e);
                    }
                },
                "cancel-job-" + viewId);
        t.setDaemon(true);
        t.start();
    }

    /**
     * Cancels a job: at an epoch boundary stops it and removes the view, its state, progress,
     * record, snapshot and change logs; waiters get {@code reason}. Returns once that is durable.
     *
     * @return false when no such job runs
     */
    boolean cancel(int viewId, TributaryException reason) throws InterruptedException {
        Job job = jobs.get(viewId);
        if (job == null) {
            return false;
        }
        CancelJob change = new CancelJob(job, reason);
        barriers.awaitCommitted(barriers.stageAtBoundary(change));
        return change.removed;
    }

    /**
     * A job cancelled at an epoch boundary, with everything it made; its waiters get the reason
     * once that is durable. Does nothing if the job ended meanwhile.
     */
    private final class CancelJob implements EpochChange {
        private final Job job;
        private final TributaryException reason;
        /** Whether staging removed the job. */
        private boolean removed;

        CancelJob(Job job, TributaryException reason) {
            this.job = job;
            this.reason = reason;
        }

        @Override
        public void stage(WriteBuffer buffer) {
            if (jobs.get(job.id()) != job) {
                return;
            }
            removed = true;
            if (job.record.refresh()) {
                stageUnpopulated(buffer, job);
            } else {
                stageCancel(buffer, job);
            }
        }

        @Override
        public void committed() {
            if (removed) {
                finish(job, reason);
            }
        }
    }

    /**
     * Under the barrier lock: stops a job and stages the removal of everything it made, with the
     * view itself; the snapshot is released once that commits. Used by cancel and DROP.
     */
    void stageCancel(WriteBuffer buffer, Job job) {
        runtime.stop(job.id());
        CatalogService.stageRemoval(buffer, job.view);
        stageJobRemoval(buffer, job.record);
        job.removedCross = cross.stageRemoval(buffer, job.id()).orElse(null);
        dropUnreadLogs(buffer);
        catalog().remove(job.view.name());
        catalog().created(job.id());
    }

    /**
     * Under the barrier lock: stops a REFRESH's job and stages the view back to unpopulated, as
     * PostgreSQL leaves a view whose REFRESH failed: its state and the job's progress go, its
     * record stays (without state tables) with its marker. Used by cancel and by a failed job.
     */
    private void stageUnpopulated(WriteBuffer buffer, Job job) {
        runtime.stop(job.id());
        CatalogService.stageRemoval(buffer, job.view);
        stageJobRemoval(buffer, job.record);
        dropUnreadLogs(buffer);
        TableDef unpopulated = job.view.withStateTables(new int[0]);
        catalogService.stageRecord(buffer, unpopulated);
        UnpopulatedViews.stage(buffer, unpopulated.id());
        catalog().put(unpopulated);
        UnpopulatedViews.markUnreadable(catalog(), unpopulated);
    }

    /**
     * Sets who hears the id of each job that ended without creating its view, once that is durable
     * (for its remote job to be cancelled). Called once, at construction of the owner; the listener
     * runs on the thread that committed the removal and must not block.
     */
    void onRemoved(java.util.function.IntConsumer listener) {
        this.removed = listener;
    }

    /** Completes a job that is out of the store: releases its snapshot and tells its waiters. */
    void finish(Job job, TributaryException failure) {
        if (!jobs.remove(job.id(), job)) {
            return;
        }
        if (failure != null) {
            removed.accept(job.id());
        }
        closeUpstreams(job);
        store.unpin(job.record.pin());
        if (job.removedCross != null) {
            cross.dropped(job.removedCross);
        }
        if (failure == null) {
            job.done.complete(null);
        } else {
            job.done.completeExceptionally(failure);
        }
    }

    /** Stages the removal of a job's record and progress (not of its view). */
    private static void stageJobRemoval(WriteBuffer buffer, BackfillJobRecord record) {
        int progress = record.progressTableId();
        buffer.deleteRange(Keyspace.DATA, TableKeys.tableStart(progress), TableKeys.tableEnd(progress));
        buffer.delete(Keyspace.CATALOG, BackfillJobRecord.key(record.viewId()));
        buffer.delete(Keyspace.CATALOG, remoteKey(record.viewId()));
        buffer.delete(Keyspace.CATALOG, adoptedKey(record.viewId()));
    }

    /** Catalog key: view {@code viewId}'s snapshot phase was placed on a worker (value: its fallback flag). */
    static byte[] remoteKey(int viewId) {
        return ("job-remote/" + viewId).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Catalog key: a worker's state was taken over for view {@code viewId} (value: job id and attempt). */
    static byte[] adoptedKey(int viewId) {
        return ("job-adopted/" + viewId).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Stages dropping the change log of every relation no backfilling job reads any more. */
    private void dropUnreadLogs(WriteBuffer buffer) {
        java.util.Set<Integer> logged = runtime.loggedRelations();
        for (int relation : loggedRelationsInStore()) {
            if (!logged.contains(relation)) {
                ChangeLogWriter.drop(buffer, relation);
            }
        }
    }

    /** The relation ids that have change-log entries committed, one seek per relation. */
    private List<Integer> loggedRelationsInStore() {
        List<Integer> out = new ArrayList<>();
        try (ReadView view = store.latest()) {
            byte[] from = new byte[0];
            while (true) {
                try (KvIterator it = view.scan(Keyspace.CHANGELOG, from, new byte[] {(byte) 0x80, 0, 0, 0})) {
                    if (!it.next()) {
                        return out;
                    }
                    byte[] key = it.key();
                    int relation = java.nio.ByteBuffer.wrap(key, 0, 4).getInt();
                    out.add(relation);
                    from = io.tributary.storage.ChangeLogKeys.relationEnd(relation);
                }
            }
        }
    }

    /** Changes a job's rate limit, durably. */
    void setRateLimit(int viewId, long rate) throws InterruptedException {
        Job job = jobs.get(viewId);
        if (job != null) {
            update(job, job.record.withRateLimit(rate));
        }
    }

    private void update(Job job, BackfillJobRecord updated) throws InterruptedException {
        int viewId = job.id();
        long rate = updated.rateLimit();
        long ticket =
                barriers.stage(buffer -> buffer.put(Keyspace.CATALOG, BackfillJobRecord.key(viewId), updated.encode()));
        job.record = updated;
        if (!job.awaitingRemote) {
            // a job waiting for a worker's state must read nothing here; it takes the rate once it goes on
            job.rate.set(rate);
        }
        barriers.awaitCommitted(ticket);
    }

    /** The job's progress as SHOW JOBS prints it, e.g. {@code 37.52% (375200/1000000)}. */
    String progressText(int viewId) {
        return progressText(progress(viewId));
    }

    /**
     * "12.34% (done/expected)" for a job's progress (null: not known yet), the share as of the
     * last checkpoint, followed by {@link #readText} while rows were read since then.
     */
    static String progressText(BackfillProgress p) {
        return doneText(p) + readText(p);
    }

    /** The progress text with a verb: "12.34% (done/expected) backfilled, 45.67% read". */
    String backfilledText(int viewId) {
        BackfillProgress p = progress(viewId);
        return doneText(p) + " backfilled" + readText(p);
    }

    private static String doneText(BackfillProgress p) {
        if (p == null) {
            return "0.00% (0/?)";
        }
        if (p.rowsExpected() < 0) {
            return "0.00% (" + p.rowsDone() + "/?)";
        }
        return String.format(Locale.ROOT, "%.2f%% (%d/%d)", JobInfo.percent(p), p.rowsDone(), p.rowsExpected());
    }

    /**
     * ", 45.67% read" (", 4567 read" while the rows expected are being counted) when the job has
     * read more than its last checkpoint holds, else "".
     */
    private static String readText(BackfillProgress p) {
        if (p == null || p.rowsRead() <= p.rowsDone()) {
            return "";
        }
        if (p.rowsExpected() < 0) {
            return ", " + p.rowsRead() + " read";
        }
        return String.format(Locale.ROOT, ", %.2f%% read", JobInfo.percent(p.rowsRead(), p.rowsExpected()));
    }

    /**
     * Job {@code viewId}'s backfill progress: the runtime's while it backfills; while the job is
     * listed but runs no backfill (stopped to load a checkpoint or to rescale, or joined to the live
     * flow and waiting for that epoch's commit, which removes it), the furthest figure it showed,
     * so {@code ddl_progress} and SHOW JOBS do not drop to 0 rows done for that moment. Null
     * before it showed any. Any thread.
     */
    BackfillProgress progress(int viewId) {
        BackfillProgress now = runtime.progress(viewId);
        Job job = jobs.get(viewId);
        if (job == null) {
            return now;
        }
        if (now == null) {
            return job.shown.get();
        }
        // keeps the furthest, so a slower caller storing an older figure cannot lower it
        job.shown.accumulateAndGet(now, (was, is) -> was == null || is.rowsDone() >= was.rowsDone() ? is : was);
        return now;
    }

    /** Why reading a view still being created fails (55000), and what to do: wait for it. */
    Catalog.Unreadable notReady(TableDef view) {
        return new Catalog.Unreadable(notReadyMessage(view), "Wait for it with WAIT, or see SHOW JOBS.");
    }

    /** The message of the 55000 error for reading a view still being created. */
    String notReadyMessage(TableDef view) {
        return "materialized view \"" + view.name() + "\" is still being created (job " + view.id() + ", "
                + progressText(view.id()) + ")";
    }

    TableDef relationById(int id) {
        for (TableDef t : catalog().tables()) {
            if (t.id() == id) {
                return t;
            }
        }
        return null;
    }

    private static void closeUpstreams(Job job) {
        job.upstreams.values().forEach(UpstreamTable::close);
        job.upstreams = Map.of();
    }

    /**
     * At startup, before the first epoch: resumes background jobs from their records and stages
     * the removal of foreground ones (their clients lost the connection with the crash), then
     * releases snapshots and change logs nothing uses any more.
     *
     * @param records the stored job records ({@link #storedRecords()})
     * @param plans plans a view's query (deterministically, as at its creation)
     */
    void recover(List<BackfillJobRecord> records, java.util.function.Function<TableDef, ViewPlan> plans) {
        List<String> pinsInUse = new ArrayList<>();
        long ticket = barriers.stage(buffer -> {
            for (BackfillJobRecord record : records) {
                TableDef view = relationById(record.viewId());
                if (view == null) {
                    buffer.delete(Keyspace.CATALOG, BackfillJobRecord.key(record.viewId()));
                    continue;
                }
                ViewPlan plan;
                try {
                    plan = plans.apply(view);
                } catch (PlanChanged e) {
                    // its checkpoints belong to another plan's operators: the creation cannot resume
                    stageJobRemoval(buffer, record);
                    catalog().unmaintainable(view.id(), e.getMessage(), PlanChanged.HINT);
                    LOG.error("{}; its creation does not resume", e.getMessage());
                    continue;
                }
                Job job = new Job(record, view, plan);
                if (record.background()) {
                    try (ReadView stored = store.latest()) {
                        byte[] remote = stored.get(Keyspace.CATALOG, remoteKey(view.id()));
                        if (remote != null && stored.get(Keyspace.CATALOG, adoptedKey(view.id())) == null) {
                            if (plan.earlierBuildTyping()) {
                                // a worker builds with this build's typing, not the one its state needs: the
                                // paused job read nothing, so its snapshot phase starts over here, without
                                // what a takeover cut short may have ingested
                                buffer.delete(Keyspace.CATALOG, remoteKey(view.id()));
                                RemoteViewAdoption.stageClear(buffer, view);
                                LOG.warn(
                                        "materialized view {} was created by an earlier build: its snapshot phase"
                                                + " runs here, not on a worker",
                                        view.name());
                            } else {
                                // its snapshot phase is still a worker's: paused again, its remote job re-attached
                                job.awaitingRemote = true;
                                job.remoteFallback = remote[0] == 1;
                                job.rate.set(0);
                            }
                        }
                    }
                    launch(job);
                    jobs.put(job.id(), job);
                    pinsInUse.add(record.pin());
                    catalog().creating(view.id(), () -> notReady(job.view));
                    LOG.info("resuming the creation of materialized view {} (job {})", view.name(), view.id());
                } else {
                    CatalogService.stageRemoval(buffer, view);
                    stageJobRemoval(buffer, job.record);
                    // the upstream databases forget it now: at worst a failed epoch leaves a view reading nothing
                    cross.stageRemoval(buffer, view.id()).ifPresent(cross::dropped);
                    catalog().remove(view.name());
                    LOG.info("removing materialized view {}: its foreground creation was interrupted", view.name());
                }
            }
            dropUnreadLogs(buffer);
        });
        for (String pin : store.pinned()) {
            if (pin.startsWith(PIN_PREFIX) && !pinsInUse.contains(pin)) {
                store.unpin(pin);
            }
        }
        LOG.debug("recovery of backfill jobs staged as ticket {}", ticket);
    }

    /**
     * The job records committed in the store. At startup, before {@link #recover}, these are the
     * views whose creation was interrupted: their jobs are started by {@link #recover}, not as live views.
     */
    List<BackfillJobRecord> storedRecords() {
        List<BackfillJobRecord> records = new ArrayList<>();
        try (ReadView view = store.snapshot();
                KvIterator it =
                        view.scan(Keyspace.CATALOG, BackfillJobRecord.prefixStart(), BackfillJobRecord.prefixEnd())) {
            while (it.next()) {
                records.add(BackfillJobRecord.decode(it.value()));
            }
        }
        return records;
    }

    /** After a failed epoch, under the barrier lock: restarts every job from its last checkpoint. */
    void relaunchAll() {
        for (Job job : jobs()) {
            launch(job);
        }
    }
}
