package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.RelationKind;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.sink.SinkManager;
import io.tributary.plan.PlanFingerprint;
import io.tributary.plan.ViewPlan;
import io.tributary.plan.ViewPlanner;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import java.util.Optional;

/**
 * {@code ALTER TABLE t RENAME TO u} and {@code ALTER MATERIALIZED VIEW v RENAME TO w}: the
 * relation keeps its id, rows and jobs; its catalog record changes in one epoch. A materialized
 * view's stored plan names the view, so the plan is stored again under the new name in that epoch
 * (its job's state tables and operators do not change), and its job is taken over at restart as
 * before. Relations that others read by name (views, materialized views, sinks, owned sequences)
 * are refused, since their stored queries name them. Called on session threads; thread-safe.
 */
public final class RelationRename {
    private final CatalogService catalogService;
    private final BarrierManager barriers;
    private final StateStore store;
    private final SinkManager sinks;
    private final ViewPlanner planner;

    public RelationRename(
            CatalogService catalogService,
            BarrierManager barriers,
            StateStore store,
            SinkManager sinks,
            ViewPlanner planner) {
        this.catalogService = catalogService;
        this.barriers = barriers;
        this.store = store;
        this.sinks = sinks;
        this.planner = planner;
    }

    /**
     * Renames relation {@code name} to {@code newLocalName} in its schema; returns once durable.
     *
     * @param kind what the statement named: {@code TABLE} (which PostgreSQL lets rename a
     *     materialized view too) or {@code MATERIALIZED_VIEW}
     * @return PostgreSQL's notice when the relation is missing and {@code ifExists} said to skip
     * @throws TributaryException 42P01, 42809 a table named as a materialized view, 42P07 the new
     *     name is taken, 0A000 for a source, a sink's relation, or one that others read by name
     */
    public Optional<String> rename(String name, boolean ifExists, String newLocalName, RelationKind kind)
            throws InterruptedException {
        Catalog catalog = catalogService.catalog();
        TableDef relation = catalog.table(name).orElse(null);
        if (relation == null || relation.isInternal()) {
            if (ifExists) {
                return Optional.of(ColumnDdl.skipping(name));
            }
            throw Catalog.undefinedTable(name);
        }
        if (kind == RelationKind.MATERIALIZED_VIEW && !relation.isView()) {
            throw new TributaryException(
                    SqlState.WRONG_OBJECT_TYPE, "\"" + relation.localName() + "\" is not a materialized view");
        }
        // an unpopulated view (WITH NO DATA) has no job to follow the name; REFRESH plans under the new one
        if (catalog.unreadable(relation.id()).filter(u -> !u.awaitsRefresh()).isPresent()) {
            throw TributaryException.notSupported("renaming a materialized view that is still being created");
        }
        if (relation.isSource()) {
            throw TributaryException.notSupported("ALTER ... RENAME TO of a source");
        }
        TableReaders.of(catalog, sinks, relation).stream().findFirst().ifPresent(r -> {
            throw TributaryException.notSupported(
                    "renaming \"" + relation.localName() + "\", which " + r.description() + " reads by name,");
        });
        if (!TableReaders.ownedSequences(catalog, relation).isEmpty()) {
            throw TributaryException.notSupported("renaming a table that owns a sequence");
        }
        String newName = Catalog.key(relation.schema(), newLocalName);
        catalogService.reserveName(newName, false);
        try {
            TableDef after = relation.renamed(newName);
            // an unpopulated view has no stored plan: REFRESH plans and stores it
            String fingerprint =
                    relation.isView() && !catalog.unreadable(relation.id()).isPresent()
                            ? renamedPlan(relation, newName)
                            : null;
            barriers.awaitCommitted(barriers.stageAtBoundary(new CatalogRecordChange(
                    catalogService, relation, after, b -> {
                        if (fingerprint != null) {
                            StoredPlans.stage(b, relation.id(), fingerprint);
                        }
                    })));
        } finally {
            catalogService.releaseName(newName);
        }
        return Optional.empty();
    }

    /**
     * The fingerprint of view {@code view}'s plan under {@code newName}, to store with the renamed
     * record, so the restart check ({@link ViewJobRecovery#replan}) finds its plan unchanged.
     *
     * @throws TributaryException 0A000 when the view's query no longer plans as stored (its job
     *     could not be taken over under either name)
     */
    private String renamedPlan(TableDef view, String newName) {
        String stored;
        try (ReadView committed = store.snapshot()) {
            stored = StoredPlans.read(committed, view.id());
        }
        ViewPlan renamed = stored == null ? null : StoredPlans.planAsBuilt(planner, view, stored, newName);
        if (renamed == null) {
            throw TributaryException.notSupported("renaming a materialized view whose stored plan predates this build");
        }
        return PlanFingerprint.of(renamed.root());
    }
}
