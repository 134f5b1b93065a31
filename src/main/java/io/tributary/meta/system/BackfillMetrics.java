package io.tributary.meta.system;

import io.tributary.common.metrics.MetricSet;
import io.tributary.meta.ddl.DdlController;
import io.tributary.meta.ddl.JobInfo;
import io.tributary.stream.backfill.BackfillProgress;

/**
 * Per job creating a view: rows done and expected as of its last checkpoint, rows read by now
 * (those since the checkpoint included), and its read rate.
 */
final class BackfillMetrics implements MetricSet {
    private final DdlController ddl;

    BackfillMetrics(DdlController ddl) {
        this.ddl = ddl;
    }

    @Override
    public void sample(Samples out) {
        for (JobInfo job : ddl.jobs()) {
            BackfillProgress p = job.progress();
            String[] labels = {"job", Integer.toString(job.id()), "view", job.view()};
            out.gauge(
                    "tributary_backfill_rows_done",
                    "Rows the backfill has read, as of its last checkpoint",
                    p == null ? 0 : p.rowsDone(),
                    labels);
            out.gauge(
                    "tributary_backfill_rows_read",
                    "Rows the backfill has read, including those since its last checkpoint",
                    p == null ? 0 : p.rowsRead(),
                    labels);
            if (p != null && p.rowsExpected() >= 0) {
                out.gauge(
                        "tributary_backfill_rows_expected",
                        "Rows the backfill will read, once the snapshot is counted",
                        p.rowsExpected(),
                        labels);
            }
            out.gauge(
                    "tributary_backfill_rows_per_second",
                    "The backfill's average read rate since it (re)started",
                    p == null ? 0 : p.rowsPerSecond(),
                    labels);
        }
    }
}
