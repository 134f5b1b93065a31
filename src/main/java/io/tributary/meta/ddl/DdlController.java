package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.RelationKind;
import io.tributary.catalog.SinkDef;
import io.tributary.catalog.SourceDef;
import io.tributary.catalog.TableDef;
import io.tributary.catalog.ViewDef;
import io.tributary.catalog.WatermarkDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.ingest.SourceManager;
import io.tributary.meta.jobs.JobPlacement;
import io.tributary.meta.sink.SinkManager;
import io.tributary.plan.ViewPlan;
import io.tributary.plan.ViewPlanner;
import io.tributary.storage.StateStore;
import io.tributary.stream.runtime.OperatorRows;
import io.tributary.stream.runtime.StreamRuntime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Every CREATE, DROP and ALTER of tables and materialized views, and the statements that steer
 * view creation jobs (SHOW JOBS, CANCEL JOBS, WAIT). The server calls only this: it decides which
 * part does what (catalog records, a connector's source, a view's streaming job) and in which
 * epoch change, so each statement's catalog records, data and source positions commit together.
 * Thread-safe; every method that changes something returns once the change is durable.
 */
public final class DdlController {
    private final CatalogService catalogService;
    private final BarrierManager barriers;
    private final ViewDdl views;
    private final SourceManager sources;
    private final SinkManager sinks;
    private final StreamRuntime runtime;
    private final JobPlacement jobs;

    /** Made once per database, after the catalog is recovered and before the barrier manager starts. */
    private final CrossDatabaseLogs crossLogs;

    private final CrossDatabaseInputs crossInputs;
    private final CheckNaming checks;
    /** The cluster's other databases' DDL by number; bound once by the cluster. */
    private volatile java.util.function.IntFunction<java.util.Optional<DdlController>> peers =
            id -> java.util.Optional.empty();

    private final SchemaDdl schemas;
    private final PlainViewDdl plainViews;
    private final SourceRateLimits sourceRates;
    private final RelationSinkDrops sinkDrops;

    public DdlController(
            CatalogService catalogService,
            BarrierManager barriers,
            StateStore store,
            StreamRuntime runtime,
            ViewPlanner planner,
            SourceManager sources,
            SinkManager sinks,
            JobPlacement jobs) {
        this.catalogService = catalogService;
        this.jobs = jobs;
        this.barriers = barriers;
        this.crossLogs = new CrossDatabaseLogs(catalogService.catalog(), barriers, store, runtime);
        this.crossInputs = new CrossDatabaseInputs(catalogService.catalog(), store, runtime);
        this.views = new ViewDdl(catalogService, barriers, store, runtime, planner, crossInputs, crossLogs, jobs);
        barriers.addCommitListener((epoch, commitNanos, sinceLast) -> crossInputs.committed());
        // sink heads wait for their relation's change log to change rather than polling it
        barriers.addCommitListener((epoch, commitNanos, sinceLast) -> runtime.committed(epoch));
        this.schemas = new SchemaDdl(catalogService, barriers);
        this.plainViews = new PlainViewDdl(catalogService, barriers);
        this.sourceRates = new SourceRateLimits(catalogService, barriers, sources);
        this.sinkDrops = new RelationSinkDrops(catalogService, sinks);
        this.checks = new CheckNaming(planner);
        this.sources = sources;
        this.sinks = sinks;
        this.runtime = runtime;
    }

    /**
     * Makes the views' streaming jobs take part in every epoch commit and resumes each from its
     * committed state (backfills from their last checkpoint). Called once at startup, before the
     * barrier manager starts.
     */
    public void recoverViews() {
        // other databases' views read these logs: they are kept before any local job starts
        crossLogs.recover();
        barriers.setParticipant(views);
        // jobs following other databases' logs start pushing rows at once: the views reading them
        // must be subscribed before any row enters, as at an epoch boundary
        java.util.concurrent.locks.Lock lock = barriers.stagingLock();
        lock.lock();
        try {
            views.recoverJobs();
        } finally {
            lock.unlock();
        }
        views.scheduleRemoteSnapshots();
    }

    /**
     * Binds the other databases of the cluster, by number, for the views of this one that read
     * their tables. Called once by the cluster, before {@link #recoverViews}.
     */
    public void bindPeers(java.util.function.IntFunction<java.util.Optional<DdlController>> peers) {
        this.peers = peers;
        crossInputs.bindPeers(id -> peers.apply(id).map(DdlController::crossDatabaseLogs));
    }

    /**
     * The DDL of database number {@code databaseId} of the cluster (this one's included), for a
     * DROP ... CASCADE that drops the views of other databases reading what it drops; empty when
     * that database is gone. Any thread.
     */
    public java.util.Optional<DdlController> peer(int databaseId) {
        return databaseId == catalog().databaseId() ? java.util.Optional.of(this) : peers.apply(databaseId);
    }

    /** This database is being dropped: the databases its views read stop keeping logs for them. */
    public void detachCrossDatabaseInputs() {
        crossInputs.detachAll();
    }

    /**
     * Whether materialized view {@code id} exists here or is being created: a reader record another
     * database holds for it is still needed ({@link CrossDatabaseLogs#sweep}). Any thread.
     */
    public boolean holdsView(int id) {
        return views.holdsView(id);
    }

    /** The side of this database that other databases' views read its tables through; any thread. */
    public CrossDatabaseLogs crossDatabaseLogs() {
        return crossLogs;
    }

    /** The lag of each input of this database's views that reads another database; any thread. */
    public List<CrossDatabaseLag> crossDatabaseLags() {
        return crossInputs.lags();
    }

    /** The default number of actors per parallel fragment of a new view: one per core. */
    public static int defaultParallelism() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** How many views may be backfilled at once; called at startup. */
    public void setMaxBackfillJobs(int max) {
        views.setMaxBackfillJobs(max);
    }

    private Catalog catalog() {
        return catalogService.catalog();
    }

    /**
     * Creates a table, fed by a connector when {@code source} is not null; a connector's source
     * starts right after the commit. The connector checks the options first (and may create what it
     * needs outside, e.g. a replication slot); if anything fails before the commit, nothing is
     * stored and the source is destroyed again.
     *
     * @param source the connector, options and format as written (identity, DML acceptance and
     *     the positions table are filled in here), or null for a table that takes DML
     * @param watermark the table's watermark, or null
     * @param checkConstraints its CHECK constraints as written (empty with a connector), named here
     * @param uniques its UNIQUE constraints as written (empty with a connector), named here
     * @param kind {@link RelationKind#SOURCE} for CREATE SOURCE (a connector's relation whose rows are
     *     not stored: views get them as a stream), else {@link RelationKind#TABLE}
     * @return false when the name existed and {@code ifNotExists} was set
     * @throws TributaryException 42P07 when the name exists; for a connector 22023 (unknown
     *     connector, bad value) or 42601 (unknown or missing option, naming the valid ones); for a
     *     check, see {@link CheckNaming#withChecks}
     */
    public boolean createTable(
            String name,
            List<ColumnDef> columns,
            int[] primaryKey,
            String definition,
            boolean ifNotExists,
            SourceDef source,
            WatermarkDef watermark,
            List<io.tributary.catalog.CheckDef> checkConstraints,
            RelationKind kind)
            throws InterruptedException {
        return createTable(
                name,
                columns,
                primaryKey,
                definition,
                ifNotExists,
                source,
                watermark,
                checkConstraints,
                kind,
                List.of(),
                List.of());
    }

    /**
     * Like the other {@code createTable}, with UNIQUE constraints {@code uniques} and FOREIGN KEY
     * constraints {@code foreignKeys} as written (each named here as PostgreSQL would when unnamed).
     */
    public boolean createTable(
            String name,
            List<ColumnDef> columns,
            int[] primaryKey,
            String definition,
            boolean ifNotExists,
            SourceDef source,
            WatermarkDef watermark,
            List<io.tributary.catalog.CheckDef> checkConstraints,
            RelationKind kind,
            List<io.tributary.catalog.IndexDef> uniques,
            List<io.tributary.catalog.ForeignKeyDef> foreignKeys)
            throws InterruptedException {
        if (source != null) {
            sources.checkOptions(source);
        }
        if (!catalogService.reserveName(name, ifNotExists)) {
            return false;
        }
        long ticket;
        try {
            SequenceDefaults.checkExist(catalog(), columns);
            if (source == null) {
                TableDef table = new TableDef(catalogService.allocateIds(1), name, columns, primaryKey, definition)
                        .withWatermark(watermark)
                        .inSchema(catalog().schemaOfKey(name));
                table = checks.withChecks(table, checkConstraints);
                table = table.withIndexes(IndexDdl.nameNew(catalogService, table, uniques));
                table = ForeignKeyResolution.withForeignKeys(catalog(), table, foreignKeys);
                ticket = barriers.stage(new NewTable(catalogService, sources, table, null));
            } else {
                SourceManager.PreparedSource prepared = sources.prepare(
                                catalogService.allocateIds(2), name, columns, primaryKey, definition, source)
                        .as(kind)
                        .withWatermark(watermark)
                        .inSchema(catalog().schemaOfKey(name));
                try {
                    ticket = barriers.stage(new NewTable(catalogService, sources, prepared.table(), prepared));
                } catch (RuntimeException e) {
                    sources.discard(prepared);
                    throw e;
                }
            }
        } catch (RuntimeException e) {
            catalogService.releaseName(name);
            throw e;
        }
        barriers.awaitCommitted(ticket);
        return true;
    }

    /**
     * {@code CREATE [OR REPLACE] VIEW}: stores the view's record; returns once it is durable. The
     * caller planned the query and checked what depends on a view it replaces.
     *
     * @throws TributaryException 42P07 when a relation has the name, or a view has it and
     *     {@code orReplace} is not set
     */
    public void createView(ViewDef view, boolean orReplace) throws InterruptedException {
        plainViews.create(view, orReplace);
    }

    /**
     * {@code CREATE SCHEMA [IF NOT EXISTS] name}; returns once durable.
     *
     * @return false when the schema exists and {@code ifNotExists} was set
     * @throws TributaryException 42P06 when it exists, 42939 for a {@code pg_} name
     */
    public boolean createSchema(String name, boolean ifNotExists) throws InterruptedException {
        return schemas.create(name, ifNotExists);
    }

    /**
     * {@code DROP SCHEMA [IF EXISTS] name [, ...]}; returns once durable.
     *
     * @return the names skipped because they did not exist ({@code ifExists})
     * @throws TributaryException 3F000 for a missing schema, 2BP01 or 0A000 for a built-in one
     */
    public List<String> dropSchemas(List<String> names, boolean ifExists) throws InterruptedException {
        return schemas.drop(names, ifExists);
    }

    /**
     * {@code DROP VIEW}: removes the plain views' records in one epoch; returns once durable. The
     * caller checked what depends on them.
     */
    public void dropViews(List<String> names) throws InterruptedException {
        plainViews.drop(names);
    }

    /**
     * {@code ALTER TABLE name SET SOURCE_RATE_LIMIT}: rows per second over all the table's splits
     * ({@link SourceDef#UNLIMITED} for none, 0 pauses). Takes effect at once; returns once durable.
     *
     * @throws TributaryException 42P01 for an unknown table, 42809 for a view or a table without
     *     a source, 22023 for a negative rate
     */
    public void setSourceRateLimit(String name, long rowsPerSecond) throws InterruptedException {
        sourceRates.set(name, rowsPerSecond);
    }

    /**
     * Creates a materialized view; see {@link ViewDdl#createMaterializedView} for the backfill,
     * the foreground wait, notices and cancel.
     *
     * @param placement where the session asks the backfill to run; see {@link
     *     ViewBackfillPlacement#place}: a worker computes the snapshot phase when it asks for one and the
     *     server has a jobs database
     */
    public boolean createMaterializedView(
            String name,
            String query,
            String definition,
            boolean ifNotExists,
            int parallelism,
            boolean background,
            long rateLimit,
            ViewBackfillPlacement placement,
            Consumer<String> notices,
            Runnable cancelCheck)
            throws InterruptedException {
        ViewBackfillPlacement placed = ViewBackfillPlacement.LOCAL;
        if (!(ifNotExists && catalog().table(name).isPresent())) {
            placed = placement.place(name, jobs.remoteEnabled(), notices);
        }
        return views.createMaterializedView(
                name, query, definition, ifNotExists, parallelism, background, rateLimit, placed, notices, cancelCheck);
    }

    /**
     * A piece of the pinned snapshot of a view whose snapshot phase runs on a worker; see {@code
     * RemoteViewAdoption.snapshotPiece}. Session threads.
     */
    public io.tributary.meta.sink.SnapshotBinaryPiece viewSnapshotPiece(
            String snapshotId, int vnode, int lastVnode, byte[] afterKey, int limit) {
        return views.snapshotPiece(snapshotId, vnode, lastVnode, afterKey, limit);
    }

    /**
     * Stops the backfill of view {@code name} (being created) and loads a checkpoint into its
     * state and positions, for a worker's scratch database resuming an earlier attempt; see {@code
     * RemoteViewAdoption.loadCheckpoint}. The job goes on at {@link #relaunchView}.
     *
     * @param changes the checkpoint's changes in order, as keys of this database's tables
     */
    public void loadViewCheckpoint(String name, RemoteViewAdoption.StagedState changes)
            throws InterruptedException, java.sql.SQLException {
        views.adoption().loadCheckpoint(catalog().require(name).id(), changes);
    }

    /** Starts the backfill {@link #loadViewCheckpoint} stopped again, from what it loaded. */
    public void relaunchView(String name) throws InterruptedException {
        views.adoption().relaunch(catalog().require(name).id());
    }

    /** The stream plan a view with this query would run, as EXPLAIN prints it; creates nothing. */
    public List<String> explain(String name, String query) {
        return views.explain(name, query);
    }

    /** The stream plan view {@code name} runs, for drawing it; empty when there is no such view. See {@link ViewDdl#plan}. */
    public Optional<ViewPlan> viewPlan(String name) {
        return views.plan(name);
    }

    /**
     * Rows in and out of each operator of view {@code viewId}'s running job, in plan graph order
     * (the numbering of {@code PlanGraph}); empty when it runs no job. See {@link StreamRuntime#operatorRows}.
     */
    public List<OperatorRows> operatorRows(int viewId) {
        return runtime.operatorRows(viewId);
    }

    /**
     * {@code DROP TABLE | MATERIALIZED VIEW name [, ...] [IF EXISTS] [CASCADE]}: each relation with
     * its rows and state (with {@code cascade}, also every view depending on it, reported to
     * {@code notices} as PostgreSQL does), then stops and destroys the sources of dropped tables.
     * Without {@code ifExists}, nothing is dropped when any name does not exist.
     *
     * @throws TributaryException 42P01 when a relation does not exist, 42809 when it is the other
     *     kind, 2BP01 when views depend on it and {@code cascade} is not set
     */
    public void drop(List<String> names, RelationKind kind, boolean ifExists, boolean cascade, Consumer<String> notices)
            throws InterruptedException {
        if (!ifExists) {
            for (String name : names) {
                if (catalog().table(name).isEmpty()) {
                    throw new TributaryException(
                            SqlState.UNDEFINED_TABLE, kind.sqlName() + " \"" + name + "\" does not exist");
                }
            }
        }
        if (!cascade && kind == RelationKind.TABLE) {
            // as PostgreSQL, a table referenced from outside the statement's tables stops the whole statement
            for (String name : names) {
                catalog().table(name).ifPresent(t -> ForeignKeyDependents.refuseDrop(catalog(), t, names));
            }
        }
        sinkDrops.dropSinksOf(names, kind, cascade, notices);
        try {
            for (String name : names) {
                if (!views.drops().drop(name, kind, ifExists, cascade, java.util.Set.copyOf(names), notices)) {
                    notices.accept(kind.sqlName() + " \"" + name + "\" does not exist, skipping");
                }
            }
        } finally {
            if (kind != RelationKind.MATERIALIZED_VIEW) {
                sources.releaseDropped(); // also after a failure: the names dropped before it are gone
            }
        }
    }

    /**
     * {@code CREATE SINK name FROM relation WITH (...)}; see {@link SinkManager#create}.
     *
     * @return false when it existed and {@code ifNotExists} was set
     */
    public boolean createSink(
            String name, boolean ifNotExists, String relation, Map<String, String> options, String sql, long rateLimit)
            throws InterruptedException {
        return sinks.create(catalogService.allocateIds(1), name, ifNotExists, relation, options, sql, rateLimit);
    }

    /**
     * {@code CREATE SINK name AS query WITH (...)}: creates the hidden materialized view {@link
     * TableDef#sinkQueryView} of the query in the foreground (its backfill done, so the sink's
     * snapshot can be pinned), then the sink FROM it. These are two epochs, not one: when the sink
     * cannot be created the view is dropped again, and a view left by a crash between the two is
     * dropped by the next CREATE SINK of that name (until then it only costs its upkeep).
     *
     * @return false when the sink existed and {@code ifNotExists} was set
     * @throws TributaryException as {@link #createMaterializedView} for the query and {@link
     *     SinkManager#create} for the options and the target
     */
    public boolean createQuerySink(
            String name,
            boolean ifNotExists,
            String query,
            Map<String, String> options,
            String sql,
            long rateLimit,
            int parallelism,
            long backfillRateLimit,
            Consumer<String> notices,
            Runnable cancelCheck)
            throws InterruptedException {
        if (sinks.sinks().stream().anyMatch(s -> s.name().equals(name))) {
            if (ifNotExists) {
                return false;
            }
            throw new TributaryException(SqlState.DUPLICATE_OBJECT, "sink \"" + name + "\" already exists");
        }
        String view = TableDef.sinkQueryView(name);
        if (catalog().table(view).isPresent()
                && sinks.sinksOn(catalog().require(view).id()).isEmpty()) {
            drop(List.of(view), RelationKind.MATERIALIZED_VIEW, true, false, ignored -> {});
        }
        // the view's own definition, not the statement: that holds the target's password
        views.createMaterializedView(
                view,
                query,
                "CREATE MATERIALIZED VIEW " + view + " AS " + query,
                false,
                parallelism,
                false,
                backfillRateLimit,
                ViewBackfillPlacement.LOCAL,
                notices,
                cancelCheck);
        boolean created = false;
        try {
            created = sinks.create(catalogService.allocateIds(1), name, ifNotExists, view, options, sql, rateLimit);
            return created;
        } finally {
            if (!created) {
                drop(List.of(view), RelationKind.MATERIALIZED_VIEW, true, false, ignored -> {});
            }
        }
    }

    /**
     * {@code DROP SINK [IF EXISTS] name}, and then the hidden view of a sink over a query (in a
     * later epoch: a crash in between leaves the view, which the next CREATE SINK of the name
     * drops); false when it did not exist.
     */
    public boolean dropSink(String name, boolean ifExists) throws InterruptedException {
        Optional<SinkDef> def =
                sinks.sinks().stream().filter(s -> s.name().equals(name)).findFirst();
        if (!sinks.drop(name, ifExists)) {
            return false;
        }
        String view = TableDef.sinkQueryView(name);
        if (def.isPresent() && def.get().relationName().equals(view)) {
            drop(List.of(view), RelationKind.MATERIALIZED_VIEW, true, false, ignored -> {});
        }
        return true;
    }

    /** {@code ALTER SINK name SET SINK_RATE_LIMIT}; -1 ({@link SourceDef#UNLIMITED}) for none, 0 pauses. */
    public void setSinkRateLimit(String name, long rowsPerSecond) throws InterruptedException {
        sinks.setRateLimit(name, rowsPerSecond);
    }

    /** {@code ALTER SINK name RESYNC}; see {@link SinkManager#resync}. */
    public void resyncSink(String name) throws InterruptedException {
        sinks.resync(name);
    }

    /** The sinks, by name, for SHOW SINKS. Any thread. */
    public List<SinkDef> sinks() {
        return sinks.sinks();
    }

    /** {@code ALTER MATERIALIZED VIEW name SET PARALLELISM}; see {@link ViewDdl#setParallelism}. */
    public void setParallelism(String name, int parallelism) throws InterruptedException {
        views.setParallelism(name, parallelism);
    }

    /** {@code ALTER MATERIALIZED VIEW name SET BACKFILL_RATE_LIMIT}; see {@link ViewJobStatements#setBackfillRateLimit}. */
    public void setBackfillRateLimit(String name, long rate) throws InterruptedException {
        views.jobStatements().setBackfillRateLimit(name, rate);
    }

    /**
     * {@code CANCEL JOBS}: the ids cancelled. An id is a view's creation ({@link ViewJobStatements#cancelJobs})
     * or a sink's backfill, local or remote ({@link SinkManager#cancelBackfill}).
     */
    public List<Integer> cancelJobs(List<Integer> ids) throws InterruptedException {
        List<Integer> cancelled = new ArrayList<>(views.jobStatements().cancelJobs(ids));
        for (int id : ids) {
            if (!cancelled.contains(id) && sinks.cancelBackfill(id)) {
                cancelled.add(id);
            }
        }
        return cancelled;
    }

    /** The sinks' backfills that run now, for SHOW JOBS. Any thread. */
    public List<SinkManager.BackfillJob> sinkBackfills() {
        return sinks.backfillJobs();
    }

    /** {@code WAIT [MATERIALIZED VIEW name]}; see {@link ViewJobStatements#await}. */
    public void await(String name, Runnable cancelCheck) throws InterruptedException {
        views.jobStatements().await(name, cancelCheck);
    }

    /**
     * {@code CREATE MATERIALIZED VIEW ... WITH NO DATA}: the view's record without a job, which
     * REFRESH creates; see {@link ViewDdl#createUnpopulated}.
     *
     * @return false when the name existed and {@code ifNotExists} was set
     */
    public boolean createUnpopulatedView(
            String name, String query, String definition, boolean ifNotExists, int parallelism)
            throws InterruptedException {
        return views.createUnpopulated(name, query, definition, ifNotExists, parallelism);
    }

    /** {@code REFRESH MATERIALIZED VIEW [CONCURRENTLY] name}; see {@link ViewDdl#refresh}. */
    public void refresh(String name, boolean concurrently, long resumeRate, Runnable cancelCheck)
            throws InterruptedException {
        views.refresh(name, concurrently, resumeRate, cancelCheck);
    }

    /** The jobs creating views now, for SHOW JOBS and the system tables. Any thread. */
    public List<JobInfo> jobs() {
        return views.jobStatements().jobs();
    }
}
