package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.TributaryException;
import io.tributary.plan.StatePlan;
import io.tributary.plan.ViewPlan;
import io.tributary.plan.ViewPlanner;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.stream.runtime.StreamRuntime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds materialized views' jobs from committed state: at startup, after a failed epoch and
 * when a rescale restarts them. Each view's query is planned again and must plan to the stream
 * plan its state was built with ({@link PlanChanged} otherwise). Called by {@link ViewDdl} under
 * the barrier lock or before the first epoch.
 */
final class ViewJobRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(ViewJobRecovery.class);

    private final CatalogService catalogService;
    private final StateStore store;
    private final StreamRuntime runtime;
    private final ViewPlanner planner;
    private final ViewBackfills backfills;
    private final CrossDatabaseInputs cross;

    ViewJobRecovery(
            CatalogService catalogService,
            StateStore store,
            StreamRuntime runtime,
            ViewPlanner planner,
            ViewBackfills backfills,
            CrossDatabaseInputs cross) {
        this.catalogService = catalogService;
        this.store = store;
        this.runtime = runtime;
        this.planner = planner;
        this.backfills = backfills;
        this.cross = cross;
    }

    private Catalog catalog() {
        return catalogService.catalog();
    }

    /**
     * Starts the job of every committed view from its committed state, readers after what they read;
     * views whose creation was interrupted resume their backfill or are removed, and unpopulated ones
     * ({@link UnpopulatedViews}) are marked so. Called at startup before the first epoch.
     */
    void recoverJobs() {
        // Views whose creation was interrupted are not live: their backfill resumes, or they are removed.
        List<BackfillJobRecord> records = backfills.storedRecords();
        try (ReadView committed = store.snapshot()) {
            for (TableDef view : catalog().tables()) {
                if (view.isView() && UnpopulatedViews.isStored(committed, view.id())) {
                    UnpopulatedViews.markUnreadable(catalog(), view);
                }
            }
        }
        resumeLiveViews(records.stream().map(BackfillJobRecord::viewId).collect(java.util.stream.Collectors.toSet()));
        backfills.recover(records, this::replan);
    }

    /** Starts the job of every view that is neither being created, nor in {@code creating}, nor unpopulated. */
    int resumeLiveViews(java.util.Set<Integer> creating) {
        List<TableDef> views = new ArrayList<>(catalog().tables().stream()
                .filter(v -> v.isView()
                        && !backfills.isCreating(v.id())
                        && !creating.contains(v.id())
                        && !UnpopulatedViews.isUnpopulated(catalog(), v.id()))
                .toList());
        views.sort(Comparator.comparingInt(TableDef::id));
        for (TableDef view : views) {
            resume(view);
        }
        if (!views.isEmpty()) {
            LOG.info("resumed {} materialized view job(s)", views.size());
        }
        return views.size();
    }

    /**
     * Plans a view's query again and checks that it plans as it did at creation: to the stored
     * fingerprint (or, for a view created before plans were stored, to the same columns and number
     * of state tables).
     *
     * @throws PlanChanged when it does not, or no longer plans at all (a restart must not fail on
     *     one view), so the view's state cannot be taken over
     */
    ViewPlan replan(TableDef view) {
        String stored;
        try (ReadView committed = store.snapshot()) {
            stored = StoredPlans.read(committed, view.id());
        }
        ViewPlan plan;
        try {
            plan = stored != null
                    ? StoredPlans.planAsBuilt(planner, view, stored, view.name())
                    : planner.plan(view.query(), view.id(), view.name());
        } catch (TributaryException refused) {
            throw new PlanChanged(view, refused);
        }
        if (stored == null && !sameShape(plan, view)) {
            // a view from before plans were stored may still have an earlier build's typing
            plan = StoredPlans.earlierFitting(planner, view, earlier -> sameShape(earlier, view));
        }
        if (plan == null) {
            throw new PlanChanged(view);
        }
        return plan;
    }

    /** What a restart checked before plans were stored: the same columns and number of state tables. */
    private static boolean sameShape(ViewPlan plan, TableDef view) {
        return ColumnDef.sameShape(plan.columns(), view.columns())
                && StatePlan.stateTableCount(plan.root()) == view.stateTableIds().length;
    }

    /** Starts a view's job from its committed state, with the view's recorded parallelism. */
    void resume(TableDef view) {
        if (backfills.isCreating(view.id())) {
            backfills.relaunch(view);
            return;
        }
        ViewPlan plan;
        try {
            plan = replan(view);
        } catch (PlanChanged e) {
            LOG.error("{}; its job does not start", e.getMessage());
            catalog().unmaintainable(view.id(), e.getMessage(), PlanChanged.HINT);
            return;
        }
        if (cross.isCrossView(view.id())) {
            try {
                cross.launchLive(view, plan);
            } catch (TributaryException e) {
                LOG.error("materialized view {} cannot read another database: {}", view.name(), e.getMessage());
                catalog().unmaintainable(view.id(), e.getMessage(), PlanChanged.HINT);
            }
            return;
        }
        runtime.launch(plan.root(), view.stateTableIds(), Math.max(1, view.parallelism()));
    }
}
