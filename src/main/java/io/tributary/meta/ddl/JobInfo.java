package io.tributary.meta.ddl;

import io.tributary.stream.backfill.BackfillProgress;

/**
 * A job creating a materialized view, as SHOW JOBS and the system tables show it.
 *
 * @param id the job's id, which is the view's relation id
 * @param rateLimit backfill rows per second per parallel unit, -1 unlimited, 0 paused
 * @param progressText e.g. {@code 37.52% (375200/1000000)}
 * @param progress the backfill's progress as of its last checkpoint; null before the first
 * @param placement where its snapshot phase runs: {@code local}, {@code remote:<worker>} or {@code waiting for a
 *     worker}
 */
public record JobInfo(
        int id,
        String view,
        String statement,
        boolean background,
        long startedAtMillis,
        long rateLimit,
        String progressText,
        BackfillProgress progress,
        String placement) {

    /** Rows done over rows expected in percent, never 100 before the job is done (0 while expected is unknown). */
    public static double percent(BackfillProgress p) {
        return percent(p.rowsDone(), p.rowsExpected());
    }

    /** {@code rows} over {@code expected} in percent, never 100 (0 while expected is unknown). */
    public static double percent(long rows, long expected) {
        if (expected <= 0) {
            return 0;
        }
        return Math.min(100.0 * rows / expected, 99.99);
    }
}
