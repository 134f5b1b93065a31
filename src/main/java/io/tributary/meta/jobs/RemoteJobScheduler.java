package io.tributary.meta.jobs;

import java.util.List;

/**
 * Places jobs (GreptimeDB's RemoteJobScheduler, with persisted state): the remote implementation
 * queues them in the shared jobs database for workers; the local one runs them in this process.
 * Callers hold one and do not branch on which it is. Thread-safe.
 */
public interface RemoteJobScheduler extends AutoCloseable {
    /**
     * Schedules {@code job}; {@code notifier} hears how it ends. Scheduling a job whose id is already
     * scheduled re-attaches to it (after a restart): it is not started again.
     *
     * @return the job's id
     * @throws ScheduleFailedException when the job could not be placed; it carries the job back
     */
    JobId schedule(RemoteJob job, Notifier notifier) throws ScheduleFailedException;

    /**
     * Cancels a job for good ({@code CANCEL JOBS}): a queued one is removed, a running one stops at
     * its next checkpoint, and a later {@link #schedule} of the same id (after a restart) does not
     * run it again but notifies {@link JobResult#CANCELLED}. No notification now.
     */
    void cancel(JobId id);

    /**
     * Stops a job because its owner drops or replaces it (DROP, RESYNC, a failed epoch): like
     * {@link #cancel}, but a later {@link #schedule} of the same id runs it again. No notification.
     */
    void stop(JobId id);

    /** Where the job runs now: {@code local}, {@code remote:<worker>} or {@code waiting for a worker}; null if unknown. */
    String placement(JobId id);

    /** The jobs this scheduler knows, for {@code tributary_catalog.remote_jobs}. */
    List<RemoteJobInfo> jobs();

    /** The workers seen, for {@code tributary_catalog.workers}. */
    List<WorkerInfo> workers();

    @Override
    void close();

    /** A row of {@code tributary_catalog.remote_jobs}; times are epoch millis, 0 when not yet. */
    record RemoteJobInfo(
            String id,
            String kind,
            String owner,
            String worker,
            String state,
            int attempts,
            long startedMillis,
            long finishedMillis,
            String lastError) {}

    /** A row of {@code tributary_catalog.workers}. */
    record WorkerInfo(String name, String address, int slots, int runningJobs, long lastHeartbeatMillis) {}
}
