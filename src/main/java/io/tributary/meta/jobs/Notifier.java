package io.tributary.meta.jobs;

/**
 * Hears how a job ended. Called once per job and attempt that counts, on a scheduler's thread (a
 * local run's, or the remote scheduler's watcher); must not block for long.
 */
public interface Notifier {
    void notify(JobResult result);
}
