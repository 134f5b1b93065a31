package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.RelationKind;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.plan.PlanFingerprint;
import io.tributary.plan.PlanPrinter;
import io.tributary.plan.StatePlan;
import io.tributary.plan.ViewPlan;
import io.tributary.plan.ViewPlanner;
import io.tributary.storage.StateStore;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.runtime.StreamRuntime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * DDL that starts streaming jobs: creating materialized views (also WITH NO DATA, and their
 * population by REFRESH), changing a view's parallelism, and rebuilding every view's job at
 * startup or after a failed epoch; DROP is {@link RelationDrops}'s, over the views being created
 * here. Jobs start and stop at epoch boundaries ({@link BarrierManager#stageAtBoundary}),
 * so a new view's snapshot holds exactly what committed before its first epoch and its job sees
 * every change after. Thread-safe.
 */
final class ViewDdl implements BarrierManager.EpochParticipant {

    private final CatalogService catalogService;
    private final BarrierManager barriers;
    private final StateStore store;
    private final StreamRuntime runtime;
    private final ViewPlanner planner;
    /** Views whose creation is staged but not yet committed, by id; DROP must see them as dependents. */
    private final Map<Integer, TableDef> creating = new ConcurrentHashMap<>();

    private final ViewBackfills backfills;
    private final CrossDatabaseInputs cross;
    private final CrossDatabaseLogs crossLogs;
    private final RemoteViewAdoption adoption;
    private final RemoteViewSnapshots remoteSnapshots;
    private final ViewJobRecovery recovery;
    private final ViewJobStatements jobStatements;
    private final RelationDrops drops;
    private volatile int maxBackfillJobs = 4;

    ViewDdl(
            CatalogService catalogService,
            BarrierManager barriers,
            StateStore store,
            StreamRuntime runtime,
            ViewPlanner planner,
            CrossDatabaseInputs cross,
            CrossDatabaseLogs crossLogs,
            io.tributary.meta.jobs.JobPlacement jobs) {
        this.catalogService = catalogService;
        this.barriers = barriers;
        this.store = store;
        this.runtime = runtime;
        this.planner = planner;
        this.cross = cross;
        this.crossLogs = crossLogs;
        this.backfills = new ViewBackfills(catalogService, barriers, store, runtime, cross);
        this.adoption = new RemoteViewAdoption(backfills, barriers, store, runtime);
        this.remoteSnapshots = new RemoteViewSnapshots(backfills, adoption, jobs, catalogService::catalog);
        this.recovery = new ViewJobRecovery(catalogService, store, runtime, planner, backfills, cross);
        this.jobStatements = new ViewJobStatements(catalogService::catalog, backfills, remoteSnapshots, CANCEL_POLL_MS);
        this.drops = new RelationDrops(
                catalogService,
                barriers,
                runtime,
                backfills,
                cross,
                crossLogs,
                creating::containsKey,
                this::dependentsOf,
                this::relationById);
    }

    /** DROP TABLE, SOURCE and MATERIALIZED VIEW, with the views depending on them under CASCADE. */
    RelationDrops drops() {
        return drops;
    }

    /** WAIT, CANCEL JOBS, SHOW JOBS and the backfill rate of views being created. */
    ViewJobStatements jobStatements() {
        return jobStatements;
    }

    private Catalog catalog() {
        return catalogService.catalog();
    }

    /** How many views may be backfilled at once; called at startup. */
    void setMaxBackfillJobs(int max) {
        this.maxBackfillJobs = max;
    }

    /** How often a foreground CREATE looks whether its client asked to cancel it. */
    private static final long CANCEL_POLL_MS = 50;

    /**
     * Ids of views whose creation has begun but is not staged yet: other databases may already
     * hold reader records for them ({@link #holdsView}).
     */
    private final java.util.Set<Integer> attaching = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * Whether materialized view {@code id} exists in this database or is being created, so that
     * reader records other databases hold for it are still needed. The three places are read in
     * the order a creation enters them (attaching, being created, the catalog); it enters each
     * before it leaves the one before, so a view in creation is never missed. Any thread.
     */
    boolean holdsView(int id) {
        return attaching.contains(id)
                || creating.containsKey(id)
                || catalog().tables().stream().anyMatch(t -> t.id() == id);
    }

    /**
     * Creates a materialized view: at an epoch boundary pins the committed state, registers the
     * job durably and starts backfilling it without holding up anyone's writes. In the background
     * it returns once the job is registered; in the foreground it waits until the view is complete,
     * sending {@code notices} with the progress every few seconds, and a cancel (interrupt, or
     * {@code cancelCheck} throwing, which it is polled for) removes the view again.
     *
     * @param parallelism actors per parallel fragment, at least 1
     * @param rateLimit backfill rows per second per parallel unit, -1 unlimited, 0 paused
     * @param cancelCheck polled while a foreground create waits; throws (57014) once the client asked to cancel
     * @return false when the name existed and {@code ifNotExists} was set
     * @throws TributaryException 42P07 when the name exists; planning errors (0A000 ...); 57014
     *     when a foreground create was cancelled
     */
    boolean createMaterializedView(
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
        if (!catalogService.reserveName(name, ifNotExists)) {
            return false;
        }
        long ticket;
        CreateView change;
        try {
            int viewId = catalogService.allocateIds(1);
            ViewPlan plan = planner.plan(query, viewId, name);
            int count = StatePlan.stateTableCount(plan.root());
            int first = catalogService.allocateIds(count + 1);
            TableDef view = viewRecord(viewId, name, plan, definition, query, stateIds(plan, first), parallelism);
            CrossDatabaseInputs.Inputs crossInputs = null;
            // from here until staged (then the view is in creating), other databases may hold its reader records
            attaching.add(viewId);
            try {
                ViewBackfillPlacement remote = null;
                if (placement.remote()) {
                    remote = placement.forPlan(
                            name,
                            !CrossDatabaseInputs.foreignInputs(plan.dependsOn()).isEmpty(),
                            notices);
                }
                if (!CrossDatabaseInputs.foreignInputs(plan.dependsOn()).isEmpty()) {
                    // the other databases pin their snapshots and keep their logs first, in their own epochs
                    crossInputs = cross.attach(viewId, name, first + count, plan.dependsOn());
                }
                change = new CreateView(view, plan, background, rateLimit, first + count, crossInputs, remote, false);
                // the snapshot is pinned under the barrier lock: flush first, so the pin itself is quick
                store.flushMemory();
                try {
                    ticket = barriers.stageAtBoundary(change);
                } catch (RuntimeException e) {
                    if (crossInputs != null) {
                        cross.abandoned(viewId);
                        cross.detach(viewId, name, crossInputs.inputs().keySet());
                    }
                    throw e;
                }
            } finally {
                attaching.remove(viewId);
            }
        } catch (RuntimeException | InterruptedException e) {
            catalogService.releaseName(name);
            throw e;
        }
        barriers.awaitCommitted(ticket);
        remoteSnapshots.scheduleWaiting();
        if (!background) {
            jobStatements.awaitForeground(change.started, notices, cancelCheck);
        }
        return true;
    }

    /** The catalog record of view {@code viewId} planned as {@code plan}, with state tables {@code stateIds}. */
    private TableDef viewRecord(
            int viewId, String name, ViewPlan plan, String definition, String query, int[] stateIds, int parallelism) {
        return new TableDef(
                        viewId,
                        name,
                        plan.columns(),
                        plan.primaryKey(),
                        definition,
                        RelationKind.MATERIALIZED_VIEW,
                        query,
                        plan.dependsOn(),
                        stateIds,
                        parallelism)
                .inSchema(catalog().schemaOfKey(name));
    }

    /** 55000 for creating view {@code name} over {@code read}, whose own creation has not finished. */
    private TributaryException onViewBeingCreated(String name, TableDef read) {
        return new TributaryException(
                SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                "cannot create materialized view \"" + name + "\" on materialized view \"" + read.name()
                        + "\", which is still being created",
                0,
                backfills.notReadyMessage(read) + ".",
                "Wait for it with WAIT MATERIALIZED VIEW " + read.name() + ", then create this view.",
                null);
    }

    /** The names and types of the columns a user sees, in order. */
    private static List<String> visibleColumns(List<ColumnDef> columns) {
        return columns.stream()
                .filter(c -> !c.hidden())
                .map(c -> c.name() + " " + c.type())
                .toList();
    }

    /** Ids for the state tables of {@code plan}, numbered from {@code first}. */
    private static int[] stateIds(ViewPlan plan, int first) {
        int[] ids = new int[StatePlan.stateTableCount(plan.root())];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = first + i;
        }
        return ids;
    }

    /**
     * {@code CREATE MATERIALIZED VIEW ... WITH NO DATA}: plans the query (so its errors are the
     * statement's) and commits the view's record unpopulated ({@link UnpopulatedViews}), with no
     * job; REFRESH creates its job. Returns once durable.
     *
     * @return false when the name existed and {@code ifNotExists} was set
     * @throws TributaryException 42P07 when the name exists; planning errors
     */
    boolean createUnpopulated(String name, String query, String definition, boolean ifNotExists, int parallelism)
            throws InterruptedException {
        if (!catalogService.reserveName(name, ifNotExists)) {
            return false;
        }
        long ticket;
        try {
            int viewId = catalogService.allocateIds(1);
            ViewPlan plan = planner.plan(query, viewId, name);
            // the state tables get their ids when REFRESH plans the query again
            if (!CrossDatabaseInputs.foreignInputs(plan.dependsOn()).isEmpty()) {
                throw TributaryException.notSupported(
                        "CREATE MATERIALIZED VIEW ... WITH NO DATA over another database's relations");
            }
            TableDef recorded = viewRecord(viewId, name, plan, definition, query, new int[0], parallelism);
            ticket = barriers.stageAtBoundary(new EpochChange() {
                @Override
                public void stage(WriteBuffer buffer) {
                    for (int upstream : recorded.dependsOn()) {
                        TableDef read = relationById(upstream);
                        if (read == null) {
                            throw new TributaryException(
                                    SqlState.UNDEFINED_TABLE,
                                    "a relation read by materialized view \"" + name + "\" was dropped meanwhile");
                        }
                        // a cancelled or interrupted creation removes the view it reads, leaving this one on nothing
                        if (backfills.isCreating(upstream)) {
                            throw onViewBeingCreated(name, read);
                        }
                    }
                    catalogService.stageRecord(buffer, recorded);
                    UnpopulatedViews.stage(buffer, recorded.id());
                    creating.put(recorded.id(), recorded);
                }

                @Override
                public void committed() {
                    UnpopulatedViews.markUnreadable(catalog(), recorded);
                    catalog().put(recorded);
                    creating.remove(recorded.id());
                    catalogService.releaseName(name);
                }

                @Override
                public void failed() {
                    creating.remove(recorded.id());
                    catalogService.releaseName(name);
                }
            });
        } catch (RuntimeException e) {
            catalogService.releaseName(name);
            throw e;
        }
        barriers.awaitCommitted(ticket);
        return true;
    }

    /**
     * Starts the job of unpopulated view {@code view} at {@code rateLimit}, for REFRESH: its query
     * is planned again (the tables it reads may have changed since, e.g. gained a primary key) and
     * the view created over its record as {@link #createMaterializedView} creates one, in the
     * background. A second REFRESH racing this one finds the job started and starts nothing.
     *
     * @throws TributaryException 0A000 when the query now gives other columns than the view has;
     *     as {@link #createMaterializedView} for the query and what it reads
     */
    private void populate(TableDef view, long rateLimit) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                populateOnce(view, rateLimit);
                return;
            } catch (TributaryException e) {
                // an ALTER TABLE that rebuilt a table it reads under a new id committed after the plan: plan again
                if (!SqlState.UNDEFINED_TABLE.equals(e.sqlState()) || attempt == 3) {
                    throw e;
                }
            }
        }
    }

    private void populateOnce(TableDef view, long rateLimit) throws InterruptedException {
        ViewPlan plan = planner.plan(view.query(), view.id(), view.name());
        if (!visibleColumns(plan.columns()).equals(visibleColumns(view.columns()))) {
            // a view an earlier build created keeps that build's column types (a bigint sum stays bigint)
            ViewPlan earlier = StoredPlans.earlierFitting(
                    planner, view, p -> visibleColumns(p.columns()).equals(visibleColumns(view.columns())));
            if (earlier != null) {
                plan = earlier;
            }
        }
        // hidden key columns and NOT NULL follow the keys of what it reads, which may have changed
        if (!visibleColumns(plan.columns()).equals(visibleColumns(view.columns()))) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "the query of materialized view \"" + view.name()
                            + "\" no longer gives the columns it was created with",
                    0,
                    null,
                    "Drop the materialized view and create it again.",
                    null);
        }
        int first = catalogService.allocateIds(StatePlan.stateTableCount(plan.root()) + 1);
        TableDef planned = viewRecord(
                view.id(),
                view.name(),
                plan,
                view.definition(),
                view.query(),
                stateIds(plan, first),
                view.parallelism());
        // COMMENT ON between WITH NO DATA and REFRESH (pg_dump's order) stays with the view and its columns
        List<ColumnDef> columns = new ArrayList<>();
        for (ColumnDef c : planned.columns()) {
            columns.add(c.withComment(view.columns().stream()
                    .filter(old -> old.name().equals(c.name()))
                    .map(ColumnDef::comment)
                    .filter(java.util.Objects::nonNull)
                    .findFirst()
                    .orElse(null)));
        }
        TableDef populated = planned.withColumns(columns, planned.primaryKey(), null, planned.checks())
                .withComment(view.comment());
        CreateView change = new CreateView(
                populated, plan, true, rateLimit, first + populated.stateTableIds().length, null, null, true);
        // the snapshot is pinned under the barrier lock: flush first, so the pin itself is quick
        store.flushMemory();
        barriers.awaitCommitted(barriers.stageAtBoundary(change));
    }

    /**
     * A new view at an epoch boundary: checks the backfill limit and what the view reads, pins the
     * snapshot and registers the backfill job, and stages the view's record; the view enters the
     * catalog (as being created) once that is durable, and the job is abandoned if it is not.
     */
    private final class CreateView implements EpochChange {
        private final TableDef view;
        private final ViewPlan plan;
        private final boolean background;
        private final long rateLimit;
        private final int progressTableId;
        private final CrossDatabaseInputs.Inputs crossInputs;
        /** Where the snapshot phase runs when on a worker; null in the server. */
        private final ViewBackfillPlacement remote;
        /** Whether this starts the job of an unpopulated view (REFRESH) rather than creating one. */
        private final boolean populating;
        /** The job started at staging; null until then, and when a racing REFRESH started it. */
        private ViewBackfills.Job started;

        CreateView(
                TableDef view,
                ViewPlan plan,
                boolean background,
                long rateLimit,
                int progressTableId,
                CrossDatabaseInputs.Inputs crossInputs,
                ViewBackfillPlacement remote,
                boolean populating) {
            this.populating = populating;
            this.crossInputs = crossInputs;
            this.remote = remote;
            this.view = view;
            this.plan = plan;
            this.background = background;
            this.rateLimit = rateLimit;
            this.progressTableId = progressTableId;
        }

        @Override
        public void stage(WriteBuffer buffer) {
            String name = view.name();
            if (populating && !UnpopulatedViews.isUnpopulated(catalog(), view.id())) {
                return; // another REFRESH started it, or it was dropped: the caller looks again
            }
            if (backfills.jobs().size() >= maxBackfillJobs) {
                throw new TributaryException(
                        SqlState.CONFIGURATION_LIMIT_EXCEEDED,
                        "cannot create materialized view \"" + name + "\": the limit of " + maxBackfillJobs
                                + " backfill job(s) running at once is reached",
                        0,
                        null,
                        "Wait for one with WAIT, or start the server with a larger --max-backfill-jobs.",
                        null);
            }
            for (int upstream : view.dependsOn()) {
                if (io.tributary.catalog.ForeignRelations.isForeign(upstream)) {
                    continue;
                }
                TableDef read = relationById(upstream);
                if (read == null) {
                    throw new TributaryException(
                            SqlState.UNDEFINED_TABLE,
                            "a relation read by materialized view \"" + name + "\" was dropped meanwhile");
                }
                if (UnpopulatedViews.isUnpopulated(catalog(), upstream)) {
                    throw UnpopulatedViews.notPopulated(read);
                }
                if (backfills.isCreating(upstream)) {
                    throw onViewBeingCreated(name, read);
                }
            }
            started = backfills.start(
                    buffer,
                    view,
                    plan,
                    // what SHOW JOBS and ddl_progress show: the statement that started the job
                    populating ? "REFRESH MATERIALIZED VIEW " + view.name() : view.definition(),
                    background,
                    rateLimit,
                    progressTableId,
                    crossInputs,
                    remote,
                    populating);
            catalogService.stageRecord(buffer, view);
            StoredPlans.stage(buffer, view.id(), PlanFingerprint.of(plan.root()));
            if (populating) {
                UnpopulatedViews.stageRemoval(buffer, view.id());
            }
            creating.put(view.id(), view);
        }

        @Override
        public void committed() {
            if (populating && started == null) {
                return;
            }
            catalog().put(view);
            catalog().creating(view.id(), () -> backfills.notReady(view));
            creating.remove(view.id());
            if (!populating) {
                catalogService.releaseName(view.name());
            }
        }

        @Override
        public void failed() {
            if (populating && started == null) {
                return;
            }
            creating.remove(view.id());
            if (!populating) {
                catalogService.releaseName(view.name());
            }
            backfills.abandon(started);
        }
    }

    /**
     * {@code REFRESH MATERIALIZED VIEW [CONCURRENTLY] name}; see {@link ViewRefresh#refresh}. An
     * unpopulated view gets its job here ({@link #populate}).
     */
    void refresh(String name, boolean concurrently, long resumeRate, Runnable cancelCheck) throws InterruptedException {
        new ViewRefresh(catalog(), backfills, CANCEL_POLL_MS, this::populate)
                .refresh(name, concurrently, resumeRate, cancelCheck);
    }

    /**
     * The stream plan a view with this query would run, as EXPLAIN prints it; creates nothing,
     * so state tables show as placeholders.
     */
    List<String> explain(String name, String query) {
        return PlanPrinter.explain(planner.plan(query, 0, name).root(), null);
    }

    /**
     * The stream plan materialized view {@code name} runs, planned again from its query as at
     * restart (with its own relation id, so it numbers state tables as the view stores them), or
     * empty when there is no such view. Creates nothing; any thread.
     */
    Optional<ViewPlan> plan(String name) {
        return catalog().table(name).filter(TableDef::isView).map(v -> {
            try {
                return recovery.replan(v);
            } catch (PlanChanged notMaintained) {
                return planner.plan(v.query(), v.id(), v.name());
            }
        });
    }

    /** Every view reading {@code relation}, directly or through other views (including ones being created). */
    private List<TableDef> dependentsOf(TableDef relation) {
        List<TableDef> all = new ArrayList<>(catalog().tables());
        all.addAll(creating.values());
        List<TableDef> out = new ArrayList<>();
        List<Integer> frontier = new ArrayList<>(List.of(relation.id()));
        while (!frontier.isEmpty()) {
            int id = frontier.remove(frontier.size() - 1);
            for (TableDef t : all) {
                if (t.dependsOn(id) && out.stream().noneMatch(o -> o.id() == t.id())) {
                    out.add(t);
                    frontier.add(t.id());
                }
            }
        }
        return out;
    }

    private TableDef relationById(int id) {
        for (TableDef t : catalog().tables()) {
            if (t.id() == id) {
                return t;
            }
        }
        return creating.get(id);
    }

    /**
     * Places the snapshot phases that wait for a worker and have no remote job in this process yet:
     * after startup's recovery, re-attaching to the jobs a restart interrupted. Not under the barrier lock.
     */
    void scheduleRemoteSnapshots() {
        remoteSnapshots.scheduleWaiting();
    }

    /** Moves paused or stopped view jobs on from a checkpoint; see {@link DdlController#loadViewCheckpoint}. */
    RemoteViewAdoption adoption() {
        return adoption;
    }

    /** See {@code RemoteViewAdoption.snapshotPiece}; session threads. */
    io.tributary.meta.sink.SnapshotBinaryPiece snapshotPiece(
            String snapshotId, int vnode, int lastVnode, byte[] afterKey, int limit) {
        return adoption.snapshotPiece(snapshotId, vnode, lastVnode, afterKey, limit);
    }

    /** See {@link ViewJobRecovery#recoverJobs}. */
    void recoverJobs() {
        recovery.recoverJobs();
    }

    /**
     * Runs a view's job on {@code parallelism} actors per parallel fragment from now on. At an
     * epoch boundary the job, and the jobs of views reading it, stop and restart from their
     * committed state with the vnodes spread over the new actors: state is stored per vnode, so
     * nothing is recomputed, lost or doubled. Returns once the change is durable.
     *
     * @throws TributaryException 42P01 for an unknown view, 42809 for a table
     */
    void setParallelism(String name, int parallelism) throws InterruptedException {
        barriers.awaitCommitted(barriers.stageAtBoundary(new RescaleView(
                name, parallelism, catalogService, runtime, recovery, this::populatedView, this::dependentsOf)));
    }

    /** The materialized view named {@code name}, populated: 55000 for one created WITH NO DATA and not refreshed. */
    private TableDef populatedView(String name) {
        TableDef view = ViewJobStatements.requireView(catalog(), name);
        if (UnpopulatedViews.isUnpopulated(catalog(), view.id())) {
            throw UnpopulatedViews.notPopulated(view);
        }
        return view;
    }

    @Override
    public void beforeCommit(long epoch, WriteBuffer buffer) {
        runtime.barrier(epoch, buffer);
    }

    /** The streaming state may hold changes of the discarded epoch: rebuild every job from committed state. */
    @Override
    public void afterFailedCommit() {
        runtime.stopAll();
        recovery.resumeLiveViews(java.util.Set.of());
        backfills.relaunchAll();
    }
}
