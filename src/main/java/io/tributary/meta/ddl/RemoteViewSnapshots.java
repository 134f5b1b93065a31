package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.TableDef;
import io.tributary.meta.jobs.JobId;
import io.tributary.meta.jobs.JobPlacement;
import io.tributary.meta.jobs.JobResult;
import io.tributary.meta.jobs.Notifier;
import io.tributary.meta.jobs.RemoteJob;
import io.tributary.meta.jobs.ScheduleFailedException;
import io.tributary.stream.backfill.BackfillProgress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Places the snapshot phase of views created with {@code SET remote_backfill = true} on workers
 * (docs/ARCHITECTURE.md, Remote jobs, "A view's snapshot phase on a worker") and takes their
 * results over: the job was launched paused ({@link ViewBackfills.Job#awaitingRemote}); a worker's
 * state is adopted once ({@link RemoteViewAdoption#adopt}), and a worker that fails, or no worker at all,
 * lets the job read its snapshot here when its fallback allows. Results are handled on one thread
 * of its own, since notifiers must not block. Thread-safe.
 */
final class RemoteViewSnapshots {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteViewSnapshots.class);

    private final ViewBackfills backfills;
    private final RemoteViewAdoption adoption;
    private final JobPlacement placement;
    private final Supplier<Catalog> catalog;
    /**
     * Per view whose snapshot phase was on a worker: the snapshot rows and time when this server
     * first read its progress, and the most it has read since.
     */
    private final Map<Integer, long[]> rates = new ConcurrentHashMap<>();

    /**
     * One thread, started for a result and gone when idle, so a database without remote views holds
     * none. Its work (reading a worker's state from the jobs database and writing it into files,
     * loading checkpoints, cancels) is all background work, which no commit waits for: it runs at
     * background priority, like a backfill's checkpoint threads.
     */
    private final ThreadPoolExecutor results =
            new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(
                        () -> {
                            io.tributary.common.BackgroundPriority.lowerCurrentThread();
                            r.run();
                        },
                        "remote-view-results");
                t.setDaemon(true);
                return t;
            });

    RemoteViewSnapshots(
            ViewBackfills backfills, RemoteViewAdoption adoption, JobPlacement placement, Supplier<Catalog> catalog) {
        this.backfills = backfills;
        this.adoption = adoption;
        this.placement = placement;
        this.catalog = catalog;
        results.allowCoreThreadTimeOut(true);
        backfills.onRemoved(this::cancel);
    }

    /**
     * Cancels the remote job of view {@code viewId}, whose creation ended without the view (DROP,
     * {@code CANCEL JOBS}, a failure): a queued execution is removed, a running attempt finds it no
     * longer owns the job at its next piece and commits nothing, and {@code remote_jobs.state}
     * says {@code cancelled}. Does nothing for a view that never asked for a worker. Any thread:
     * the jobs database is written on the results thread.
     */
    void cancel(int viewId) {
        if (!placement.remoteEnabled()) {
            return;
        }
        JobId id = placement.jobId(ViewSnapshotJob.localJobId(viewId));
        rates.remove(viewId);
        results.execute(() -> {
            placement.cancel(id);
            placement.dropResult(id);
        });
    }

    /**
     * Schedules (or, after a restart, re-attaches to) the remote snapshot phase of every job
     * waiting for a worker that has none placed yet. Called after a creation commits and at startup.
     */
    void scheduleWaiting() {
        for (ViewBackfills.Job job : adoption.awaitingRemote()) {
            if (!job.remoteScheduled) {
                job.remoteScheduled = true;
                schedule(job);
            }
        }
    }

    /**
     * Where job {@code job}'s snapshot phase runs, for {@code ddl_progress.placement}: {@code local},
     * {@code remote:<worker>} or {@code waiting for a worker}. Any thread.
     */
    String placement(ViewBackfills.Job job) {
        if (!job.awaitingRemote) {
            return "local";
        }
        String remote = placement.placement(placement.jobId(ViewSnapshotJob.localJobId(job.id())));
        return remote == null || remote.equals("local") ? "waiting for a worker" : remote;
    }

    /**
     * Job {@code job}'s progress for {@code ddl_progress} and SHOW JOBS: {@code local} (the job's
     * own, from its stored positions) while its snapshot phase runs here, and while it waits for
     * or runs on a worker the greater of that and the snapshot rows the workers' committed
     * checkpoints have read ({@code rows_done} in the jobs database), with a rate measured from
     * what this server saw of that figure. Neither figure goes back: the worker's only rises, and
     * the job's own positions, once it resumes here or takes the result over, cover at least
     * those checkpoints; the most this server read of the worker's is held until the job's own
     * figure reaches it, so the moment between the two shows no dip either. Any thread.
     */
    BackfillProgress progress(ViewBackfills.Job job, BackfillProgress local) {
        long[] seen = rates.get(job.id());
        if (job.awaitingRemote && placement.remoteEnabled()) {
            long remote = placement.remoteRowsDone(placement.jobId(ViewSnapshotJob.localJobId(job.id())));
            long now = System.nanoTime();
            seen = rates.computeIfAbsent(job.id(), id -> new long[] {remote, now, remote});
            synchronized (seen) {
                seen[2] = Math.max(seen[2], remote);
            }
        }
        if (seen == null) {
            return local;
        }
        long floor;
        long rate;
        synchronized (seen) {
            floor = seen[2];
            long elapsed = System.nanoTime() - seen[1];
            rate = elapsed < 1_000_000_000L ? 0 : (floor - seen[0]) * 1_000_000_000L / elapsed;
        }
        if (local != null && local.rowsDone() >= floor) {
            if (!job.awaitingRemote) {
                // the job's own positions cover the workers' checkpoints from now on
                rates.remove(job.id(), seen);
            }
            return local;
        }
        // until the job's own figure catches up (the moment a fallback or a takeover installs the
        // positions), the workers' figure holds, so the progress shown never goes back
        return local == null
                ? new BackfillProgress(floor, floor, -1, false, rate, Map.of(), List.of())
                : new BackfillProgress(
                        floor,
                        Math.max(floor, local.rowsRead()),
                        local.rowsExpected(),
                        false,
                        rate,
                        local.consumedThrough(),
                        local.vnodes());
    }

    private void schedule(ViewBackfills.Job job) {
        List<TableDef> upstreams = new ArrayList<>();
        for (int relation : job.view.dependsOn()) {
            catalog.get().tables().stream().filter(t -> t.id() == relation).forEach(upstreams::add);
        }
        ViewSnapshotJob payload = new ViewSnapshotJob(
                RemoteJob.FORMAT_VERSION,
                placement.database(),
                job.record.snapshotEpoch(),
                job.view,
                upstreams,
                job.record.rateLimit());
        JobId id = placement.jobId(ViewSnapshotJob.localJobId(job.id()));
        int viewId = job.id();
        RemoteJob remote =
                new RemoteJob(id, RemoteJob.VIEW_SNAPSHOT, job.view.name(), payload.encode(), new RemoteJob.LocalRun() {
                    @Override
                    public void start(Notifier notifier) {
                        results.execute(() -> {
                            resumeHere(viewId, "no worker took it");
                            notifier.notify(new JobResult(id, 0, "local", null));
                        });
                    }

                    @Override
                    public void stop() {
                        // a local run is the job reading its snapshot here: it ends with the job
                    }
                });
        boolean fallback = job.remoteFallback;
        try {
            placement.place(remote, result -> results.execute(() -> ended(viewId, result, fallback)), true, fallback);
        } catch (ScheduleFailedException e) {
            // only without fallback: the job stays paused and says so in remote_jobs' absence and the log
            LOG.warn("the snapshot phase of materialized view {} waits: {}", job.view.name(), e.getMessage());
        }
    }

    /** The results thread: a remote attempt (or the local fallback) ended. */
    private void ended(int viewId, JobResult result, boolean fallback) {
        if (result.attempt() == 0 || result.cancelled()) {
            return;
        }
        if (!result.succeeded()) {
            LOG.warn("the remote snapshot phase of view {} failed: {}", viewId, result.error());
            if (fallback) {
                resumeHere(viewId, result.error());
            }
            return;
        }
        try {
            boolean adopted = adoption.adopt(
                    viewId,
                    result.id().value() + "#" + result.attempt(),
                    out -> placement.readResult(result.id(), result.attempt(), out));
            LOG.info(
                    "view {}: {} the state of {}",
                    viewId,
                    adopted ? "took over" : "ignored (already taken over or gone)",
                    result.id());
            placement.dropResult(result.id());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.sql.SQLException | RuntimeException e) {
            LOG.warn("taking over the state of {} failed: {}", result.id(), e.getMessage());
            if (fallback) {
                resumeHere(viewId, e.getMessage());
            }
        }
    }

    /**
     * The snapshot phase goes on in the server, from the last checkpoint a worker committed (the
     * remote job is given up by then, so no attempt commits another).
     */
    private void resumeHere(int viewId, String why) {
        JobId id = placement.jobId(ViewSnapshotJob.localJobId(viewId));
        try {
            long rows = adoption.resumeLocally(viewId, out -> placement.readCheckpoint(id, out));
            if (rows >= 0) {
                LOG.info(
                        "view {}: its snapshot phase runs in the server from the workers' checkpoint at {} snapshot"
                                + " rows ({})",
                        viewId,
                        rows,
                        why);
                // the job's own positions are durable now: the checkpoints are not read again
                placement.dropResult(id);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.sql.SQLException | RuntimeException e) {
            LOG.warn("view {}: the workers' checkpoint could not be read ({}); it waits", viewId, e.getMessage());
        }
    }
}
