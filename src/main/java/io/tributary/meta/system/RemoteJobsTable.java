package io.tributary.meta.system;

import io.tributary.catalog.ColumnDef;
import io.tributary.common.types.DataType;
import io.tributary.meta.jobs.JobPlacement;
import io.tributary.meta.jobs.RemoteJobScheduler;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code tributary_catalog.remote_jobs}: the jobs of the jobs database (or, without {@code
 * --jobs-url}, those running here): id, kind, owner, worker, state ({@code waiting}, {@code
 * running}, {@code done}, {@code failed}, {@code cancelled}, {@code local} once fallen back),
 * attempts, started, finished and the last error.
 */
final class RemoteJobsTable extends EngineStateTable {
    private final JobPlacement jobs;

    RemoteJobsTable(JobPlacement jobs) {
        super(
                "remote_jobs",
                new ColumnDef("id", DataType.TEXT, true, false),
                new ColumnDef("kind", DataType.TEXT, true, false),
                new ColumnDef("owner", DataType.TEXT, true, false),
                new ColumnDef("worker", DataType.TEXT, false, false),
                new ColumnDef("state", DataType.TEXT, true, false),
                new ColumnDef("attempts", DataType.INTEGER, true, false),
                new ColumnDef("started", DataType.TIMESTAMPTZ, false, false),
                new ColumnDef("finished", DataType.TIMESTAMPTZ, false, false),
                new ColumnDef("last_error", DataType.TEXT, false, false));
        this.jobs = jobs;
    }

    @Override
    public List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        for (RemoteJobScheduler.RemoteJobInfo j : jobs.jobs()) {
            rows.add(new Object[] {
                j.id(),
                j.kind(),
                j.owner(),
                j.worker(),
                j.state(),
                j.attempts(),
                j.startedMillis() == 0 ? null : j.startedMillis() * 1000,
                j.finishedMillis() == 0 ? null : j.finishedMillis() * 1000,
                j.lastError()
            });
        }
        return rows;
    }
}
