package io.tributary.meta.system;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.SystemTables;
import io.tributary.meta.ddl.DdlController;
import io.tributary.meta.ingest.SourceManager;
import io.tributary.meta.jobs.JobPlacement;
import io.tributary.meta.sink.SinkManager;
import io.tributary.meta.write.Watermarks;

/** Registers the engine's system tables ({@code tributary_catalog.*}); called once as the database opens. */
public final class SystemTablesOfEngine {
    private SystemTablesOfEngine() {}

    /**
     * Registers relations, ddl_progress, backfill_progress, source_progress, source_errors and
     * sink_progress, workers, remote_jobs and watermarks in {@code tables}.
     */
    public static void register(
            SystemTables tables,
            Catalog catalog,
            DdlController ddl,
            SourceManager sources,
            SinkManager sinks,
            JobPlacement jobs,
            Watermarks watermarks) {
        tables.register(new RelationsTable(catalog));
        tables.register(new DdlProgressTable(ddl));
        tables.register(new BackfillProgressTable(ddl));
        tables.register(new SourceProgressTable(sources));
        tables.register(new SourceErrorsTable(sources));
        tables.register(new SinkProgressTable(sinks));
        tables.register(new WorkersTable(jobs));
        tables.register(new RemoteJobsTable(jobs));
        tables.register(new WatermarksTable(catalog, watermarks));
        tables.register(new CrossDatabaseInputsTable(ddl));
    }
}
