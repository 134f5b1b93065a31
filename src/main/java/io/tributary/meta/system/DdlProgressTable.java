package io.tributary.meta.system;

import io.tributary.catalog.ColumnDef;
import io.tributary.common.types.DataType;
import io.tributary.meta.ddl.DdlController;
import io.tributary.meta.ddl.JobInfo;
import io.tributary.stream.backfill.BackfillProgress;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code tributary_catalog.ddl_progress}: one row per materialized view being created, as of its
 * last checkpoint. {@code phase} is {@code snapshot} while some vnode still reads the upstream's
 * snapshot, {@code log} while it reads change logs, {@code catching up} once every source has
 * read every committed epoch and the job waits to go live. Expected rows and the ETA are null
 * while the snapshot is being counted; progress never reaches 100 before the job is done. {@code
 * placement} is where the backfill runs, as {@code sink_progress} says it. {@code rows_read}
 * counts also the rows read since the last checkpoint (a restart reads those again), so it moves
 * while checkpoints are far apart; the rate and the ETA are of rows read.
 */
final class DdlProgressTable extends EngineStateTable {
    private final DdlController ddl;

    DdlProgressTable(DdlController ddl) {
        super(
                "ddl_progress",
                new ColumnDef("job_id", DataType.BIGINT, true, false),
                new ColumnDef("view_name", DataType.TEXT, true, false),
                new ColumnDef("statement", DataType.TEXT, true, false),
                new ColumnDef("phase", DataType.TEXT, true, false),
                new ColumnDef("progress", DataType.numeric(5, 2), true, false),
                new ColumnDef("rows_done", DataType.BIGINT, true, false),
                new ColumnDef("rows_expected", DataType.BIGINT, false, false),
                new ColumnDef("rows_per_second", DataType.BIGINT, true, false),
                new ColumnDef("background", DataType.BOOLEAN, true, false),
                new ColumnDef("rate_limit", DataType.BIGINT, false, false),
                new ColumnDef("started_at", DataType.TIMESTAMPTZ, true, false),
                new ColumnDef("eta", DataType.TIMESTAMPTZ, false, false),
                new ColumnDef("placement", DataType.TEXT, true, false),
                new ColumnDef("rows_read", DataType.BIGINT, true, false));
        this.ddl = ddl;
    }

    @Override
    public List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        long nowMillis = System.currentTimeMillis();
        for (JobInfo job : ddl.jobs()) {
            BackfillProgress p = job.progress();
            long done = p == null ? 0 : p.rowsDone();
            long read = p == null ? 0 : p.rowsRead();
            Long expected = p == null || p.rowsExpected() < 0 ? null : p.rowsExpected();
            long perSecond = p == null ? 0 : p.rowsPerSecond();
            Long eta = expected == null || perSecond <= 0
                    ? null
                    : (nowMillis + 1000 * Math.max(0, expected - read) / perSecond) * 1000;
            rows.add(new Object[] {
                (long) job.id(),
                job.view(),
                job.statement(),
                phase(p),
                BigDecimal.valueOf(p == null ? 0 : JobInfo.percent(p)).setScale(2, RoundingMode.HALF_UP),
                done,
                expected,
                perSecond,
                job.background(),
                job.rateLimit() < 0 ? null : job.rateLimit(),
                job.startedAtMillis() * 1000,
                eta,
                job.placement(),
                read
            });
        }
        return rows;
    }

    private static String phase(BackfillProgress p) {
        if (p == null || p.vnodes().stream().anyMatch(v -> v.phase().equals("snapshot"))) {
            return "snapshot";
        }
        return p.caughtUp() ? "catching up" : "log";
    }
}
