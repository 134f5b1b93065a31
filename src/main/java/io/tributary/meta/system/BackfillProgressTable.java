package io.tributary.meta.system;

import io.tributary.catalog.ColumnDef;
import io.tributary.common.types.DataType;
import io.tributary.meta.ddl.DdlController;
import io.tributary.meta.ddl.JobInfo;
import io.tributary.stream.backfill.BackfillProgress;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code tributary_catalog.backfill_progress}: per job, source of its query (in plan order; a
 * view may read a relation twice) and upstream vnode, where the backfill stands as of its last
 * checkpoint: {@code phase} {@code snapshot} or {@code log}, the epoch the vnode has read its
 * upstream through, and the rows it has read.
 */
final class BackfillProgressTable extends EngineStateTable {
    private final DdlController ddl;

    BackfillProgressTable(DdlController ddl) {
        super(
                "backfill_progress",
                new ColumnDef("job_id", DataType.BIGINT, true, false),
                new ColumnDef("source", DataType.INTEGER, true, false),
                new ColumnDef("vnode", DataType.INTEGER, true, false),
                new ColumnDef("phase", DataType.TEXT, true, false),
                new ColumnDef("epoch", DataType.BIGINT, true, false),
                new ColumnDef("rows_done", DataType.BIGINT, true, false));
        this.ddl = ddl;
    }

    @Override
    public List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        for (JobInfo job : ddl.jobs()) {
            BackfillProgress p = job.progress();
            if (p == null) {
                continue;
            }
            for (BackfillProgress.Vnode v : p.vnodes()) {
                rows.add(new Object[] {(long) job.id(), v.source(), v.vnode(), v.phase(), v.epoch(), v.rows()});
            }
        }
        return rows;
    }
}
