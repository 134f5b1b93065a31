package io.tributary.meta.system;

import io.tributary.catalog.ColumnDef;
import io.tributary.common.types.DataType;
import io.tributary.meta.jobs.JobPlacement;
import io.tributary.meta.jobs.RemoteJobScheduler;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code tributary_catalog.workers}: the {@code tributary worker} processes seen in the jobs
 * database: name, address (as the jobs database saw it), slots, running jobs and last heartbeat.
 * Empty without {@code --jobs-url}. Read from the jobs database at each query.
 */
final class WorkersTable extends EngineStateTable {
    private final JobPlacement jobs;

    WorkersTable(JobPlacement jobs) {
        super(
                "workers",
                new ColumnDef("name", DataType.TEXT, true, false),
                new ColumnDef("address", DataType.TEXT, false, false),
                new ColumnDef("slots", DataType.INTEGER, true, false),
                new ColumnDef("running_jobs", DataType.INTEGER, true, false),
                new ColumnDef("last_heartbeat", DataType.TIMESTAMPTZ, true, false));
        this.jobs = jobs;
    }

    @Override
    public List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        for (RemoteJobScheduler.WorkerInfo w : jobs.scheduler().workers()) {
            rows.add(new Object[] {w.name(), w.address(), w.slots(), w.runningJobs(), w.lastHeartbeatMillis() * 1000});
        }
        return rows;
    }
}
