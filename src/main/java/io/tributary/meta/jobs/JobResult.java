package io.tributary.meta.jobs;

/**
 * How a job ended.
 *
 * @param id the job
 * @param attempt the attempt that produced it: 0 for a local run, 1 and up for remote attempts
 * @param placement where it ran: {@code local} or {@code remote:<worker>}
 * @param error null when the job succeeded
 */
public record JobResult(JobId id, int attempt, String placement, String error) {
    /** The error of a job cancelled by {@link RemoteJobScheduler#cancel} before it finished. */
    public static final String CANCELLED = "cancelled";

    /** Whether the job ended because it was cancelled ({@code CANCEL JOBS}). */
    public boolean cancelled() {
        return CANCELLED.equals(error);
    }

    public boolean succeeded() {
        return error == null;
    }
}
