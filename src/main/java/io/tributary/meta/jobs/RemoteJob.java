package io.tributary.meta.jobs;

/**
 * A job to run, remotely or here.
 *
 * @param id the job's id (see {@link JobId}: stable across restarts)
 * @param kind what the job does, e.g. {@link #SINK_BACKFILL}; a worker runs only the kinds it knows
 * @param owner the catalog object the job works for, as users name it (e.g. the sink's name)
 * @param payload everything a worker needs, in the kind's format of {@link #FORMAT_VERSION}
 * @param local how this process runs the job itself (the local scheduler, or a fallback)
 */
public record RemoteJob(JobId id, String kind, String owner, byte[] payload, LocalRun local) {
    /**
     * The version of every job payload's format; a worker of another version is refused. 2: a sink
     * backfill's payload names its database.
     */
    public static final int FORMAT_VERSION = 2;

    /** A sink's backfill: copy a pinned snapshot into the sink's target, vnode by vnode. */
    public static final String SINK_BACKFILL = "sink-backfill";

    /**
     * The snapshot phase of a materialized view's backfill: the worker computes the view's operator
     * state from the pinned snapshot and stages it with its result; the server takes it over.
     */
    public static final String VIEW_SNAPSHOT = "view-snapshot";

    /**
     * The local execution of a job. Called on the scheduling thread; {@code start} returns at once
     * and the run reports its end to the notifier it was given.
     */
    public interface LocalRun {
        void start(Notifier notifier);

        /** Stops a started run (idempotent); it does not notify. */
        void stop();
    }
}
