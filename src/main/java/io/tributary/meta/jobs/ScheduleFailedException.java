package io.tributary.meta.jobs;

/**
 * A job could not be placed (the jobs database is unreachable, or no worker came in time); it
 * hands the job back so the caller can run it locally when its fallback allows.
 */
public final class ScheduleFailedException extends Exception {
    private final transient RemoteJob job;

    public ScheduleFailedException(RemoteJob job, String reason, Throwable cause) {
        super(reason, cause);
        this.job = job;
    }

    /** The job, unscheduled. */
    public RemoteJob job() {
        return job;
    }
}
