package io.tributary.meta.jobs;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a job runs: remotely when the caller asks for it and the server has a jobs database, else
 * here; a failed remote {@code schedule} hands the job back to the local scheduler when its
 * fallback allows. The one object job owners (sinks) hold. Thread-safe.
 */
public final class JobPlacement implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JobPlacement.class);

    private final LocalJobScheduler local;
    /** Null when the server runs without {@code --jobs-url}. */
    private final DbJobScheduler remote;

    public JobPlacement(LocalJobScheduler local, DbJobScheduler remote) {
        this.local = local;
        this.remote = remote;
    }

    /** Everything local: a server without {@code --jobs-url}. */
    public static JobPlacement localOnly() {
        return new JobPlacement(new LocalJobScheduler(), null);
    }

    /** Whether remote placement is possible at all. */
    public boolean remoteEnabled() {
        return remote != null;
    }

    /**
     * Places {@code job}.
     *
     * @param wantRemote the job's owner asks for a worker ({@code backfill.remote})
     * @param fallback whether it may run here when no worker can take it ({@code backfill.fallback_to_local})
     * @throws ScheduleFailedException when it must run remotely and could not be queued
     */
    public JobId place(RemoteJob job, Notifier notifier, boolean wantRemote, boolean fallback)
            throws ScheduleFailedException {
        if (!wantRemote || remote == null) {
            return local.schedule(job, notifier);
        }
        try {
            return remote.schedule(job, notifier, fallback);
        } catch (ScheduleFailedException e) {
            if (!fallback) {
                throw e;
            }
            LOG.warn("{}; running it locally", e.getMessage());
            return local.schedule(e.job(), notifier);
        }
    }

    /**
     * Tells workers where this server serves exported snapshots (host:port of its pgwire); called
     * once the server listens. Nothing without a jobs database.
     *
     * @throws io.tributary.common.TributaryException 08001 when the jobs database cannot be reached
     */
    public void advertise(String serverAddress) {
        if (remote != null) {
            remote.advertise(serverAddress);
        }
    }

    /** Cancels the job for good wherever it runs ({@code CANCEL JOBS}); see {@link RemoteJobScheduler#cancel}. */
    public void cancel(JobId id) {
        local.cancel(id);
        if (remote != null) {
            remote.cancel(id);
        }
    }

    /** Stops the job wherever it runs, to be scheduled again later; see {@link RemoteJobScheduler#stop}. */
    public void stop(JobId id) {
        local.stop(id);
        if (remote != null) {
            remote.stop(id);
        }
    }

    /** {@code local}, {@code remote:<worker>}, {@code waiting for a worker}, or null when not running. */
    public String placement(JobId id) {
        String here = local.placement(id);
        if (here != null || remote == null) {
            return here;
        }
        return remote.placement(id);
    }

    /** The scheduler the system tables read: the remote one when there is one. */
    public RemoteJobScheduler scheduler() {
        return remote != null ? remote : local;
    }

    @Override
    public void close() {
        if (remote != null) {
            remote.close();
        }
        local.close();
    }
}
