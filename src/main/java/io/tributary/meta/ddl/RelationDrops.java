package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.RelationKind;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.runtime.StreamRuntime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * DROP TABLE, DROP SOURCE and DROP MATERIALIZED VIEW: the relation leaves at an epoch boundary with
 * its rows, state and job, and with CASCADE the views depending on it (transitively, in this and
 * other databases) and the foreign keys referencing it go too. Called by {@link DdlController} on
 * session threads; thread-safe (the work is staged under the barrier lock).
 */
final class RelationDrops {
    private final CatalogService catalogService;
    private final BarrierManager barriers;
    private final StreamRuntime runtime;
    private final ViewBackfills backfills;
    private final CrossDatabaseInputs cross;
    private final CrossDatabaseLogs crossLogs;
    /** Whether a view of this id is staged for creation but not committed yet. */
    private final IntPredicate creating;
    /** Every view reading a relation, directly or through other views, including ones being created. */
    private final Function<TableDef, List<TableDef>> dependentsOf;
    /** A relation of the catalog or being created by id, or null. */
    private final IntFunction<TableDef> relationById;

    RelationDrops(
            CatalogService catalogService,
            BarrierManager barriers,
            StreamRuntime runtime,
            ViewBackfills backfills,
            CrossDatabaseInputs cross,
            CrossDatabaseLogs crossLogs,
            IntPredicate creating,
            Function<TableDef, List<TableDef>> dependentsOf,
            IntFunction<TableDef> relationById) {
        this.catalogService = catalogService;
        this.barriers = barriers;
        this.runtime = runtime;
        this.backfills = backfills;
        this.cross = cross;
        this.crossLogs = crossLogs;
        this.creating = creating;
        this.dependentsOf = dependentsOf;
        this.relationById = relationById;
    }

    private Catalog catalog() {
        return catalogService.catalog();
    }

    /**
     * Drops a table, source or materialized view with its rows and state; with {@code cascade} also every
     * view depending on it (transitively), reported to {@code notices} as PostgreSQL does.
     *
     * @return false when it did not exist and {@code ifExists} was set
     * @throws TributaryException 42P01 when it does not exist, 42809 when it is the other kind,
     *     2BP01 when views depend on it and {@code cascade} is not set
     */
    boolean drop(
            String name,
            RelationKind kind,
            boolean ifExists,
            boolean cascade,
            java.util.Set<String> together,
            Consumer<String> notices)
            throws InterruptedException {
        if (cascade) {
            Optional<TableDef> target = catalog().table(name);
            if (target.isPresent() && target.get().kind() == kind) {
                // views of other databases may read the target or any view the cascade drops with it
                crossLogs.dropConsumers(target.get().id(), notices);
                for (TableDef d : dependentsOf.apply(target.get())) {
                    crossLogs.dropConsumers(d.id(), notices);
                }
            }
        }
        DropRelations change = new DropRelations(name, kind, cascade, together);
        long ticket;
        try {
            ticket = barriers.stageAtBoundary(change);
        } catch (TributaryException e) {
            if (ifExists && SqlState.UNDEFINED_TABLE.equals(e.sqlState())) {
                return false;
            }
            throw e;
        }
        for (TableDef d : change.dropped) {
            if (!d.name().equals(name)) {
                notices.accept("drop cascades to materialized view " + d.name());
            }
        }
        for (String detached : change.detachedConstraints) {
            notices.accept("drop cascades to " + detached);
        }
        barriers.awaitCommitted(ticket);
        return true;
    }

    /**
     * A relation with its dependents removed at an epoch boundary: jobs stop, rows and state are
     * deleted, and the relations leave the in-memory catalog at staging (so no write can be staged
     * for them after); they come back if the epoch fails. Backfills cancelled with them tell their
     * waiters once the drop is durable.
     */
    private final class DropRelations implements EpochChange {
        private final String name;
        private final RelationKind kind;
        private final boolean cascade;
        /** What staging removed, the target last. */
        private final List<TableDef> dropped = new ArrayList<>();

        private final List<ViewBackfills.Job> cancelledJobs = new ArrayList<>();
        /** Cross-database views removed, for their upstream databases to forget once durable. */
        private final List<CrossDatabaseInputs.Inputs> crossRemoved = new ArrayList<>();

        /** The names the statement drops, whose FOREIGN KEY constraints on the target do not stop it. */
        private final java.util.Set<String> together;
        /** Unpopulated views staging removed, to mark so again if the drop fails. */
        private final List<TableDef> unpopulated = new ArrayList<>();
        /** Referencing tables whose constraints on the target CASCADE dropped, as they were before. */
        private final List<TableDef> detached = new ArrayList<>();
        /** Those constraints as PostgreSQL's notice names them. */
        private final List<String> detachedConstraints = new ArrayList<>();

        DropRelations(String name, RelationKind kind, boolean cascade, java.util.Set<String> together) {
            this.name = name;
            this.kind = kind;
            this.cascade = cascade;
            this.together = together;
        }

        @Override
        public void stage(WriteBuffer buffer) {
            TableDef target = catalog()
                    .table(name)
                    .orElseThrow(() -> new TributaryException(
                            SqlState.UNDEFINED_TABLE, kind.sqlName() + " \"" + name + "\" does not exist"));
            if (target.kind() != kind) {
                throw new TributaryException(
                        SqlState.WRONG_OBJECT_TYPE,
                        "\"" + name + "\" is not a " + kind.sqlName(),
                        0,
                        null,
                        "Use DROP " + target.kind().sqlName().toUpperCase(java.util.Locale.ROOT) + " to remove a "
                                + target.kind().sqlName() + ".",
                        null);
            }
            List<TableDef> dependents = dependentsOf.apply(target);
            List<CrossDatabaseLogs.Consumer> readers = crossLogs.consumersOf(target.id());
            StringJoiner readerDetail = new StringJoiner("\n");
            for (CrossDatabaseLogs.Consumer c : readers) {
                readerDetail.add("materialized view " + c.name() + " depends on " + kind.sqlName() + " " + name);
            }
            if (cascade) {
                // the drop's own readers were dropped before it was staged; one that came since stops it
                for (TableDef d : dependents) {
                    for (CrossDatabaseLogs.Consumer c : crossLogs.consumersOf(d.id())) {
                        readerDetail.add("materialized view " + c.name() + " depends on materialized view " + d.name());
                    }
                }
            }
            if (readerDetail.length() > 0) {
                throw new TributaryException(
                        SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                        "cannot drop " + kind.sqlName() + " " + name
                                + " because materialized views of other databases depend on it",
                        0,
                        readerDetail.toString(),
                        "Use DROP ... CASCADE to drop the dependent objects too.",
                        null);
            }
            if (!dependents.isEmpty() && !cascade) {
                StringJoiner detail = new StringJoiner("\n");
                for (TableDef d : dependents) {
                    TableDef read = relationById.apply(d.dependsOn()[0]);
                    detail.add("materialized view " + d.name() + " depends on " + dependencyName(d, target, read));
                }
                throw new TributaryException(
                        SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                        "cannot drop " + kind.sqlName() + " " + name + " because other objects depend on it",
                        0,
                        detail.toString(),
                        "Use DROP ... CASCADE to drop the dependent objects too.",
                        null);
            }
            for (TableDef d : dependents) {
                if (creating.test(d.id())) {
                    throw new TributaryException(
                            SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                            "cannot drop " + kind.sqlName() + " " + name + " while materialized view " + d.name()
                                    + " is being created on it");
                }
            }
            if (!cascade) {
                ForeignKeyDependents.refuseDrop(catalog(), target, together);
            } else {
                for (TableDef referencing : ForeignKeyDependents.referencing(catalog(), target)) {
                    TableDef after = ForeignKeyDependents.withoutReferences(referencing, target);
                    referencing.foreignKeys().stream()
                            .filter(f -> !after.foreignKeys().contains(f))
                            .forEach(f -> detachedConstraints.add(
                                    "constraint " + f.name() + " on table " + referencing.localName()));
                    catalogService.stageRecord(buffer, after);
                    catalog().put(after);
                    detached.add(referencing);
                }
            }
            List<TableDef> all = new ArrayList<>(dependents);
            all.add(target);
            // dependents have higher ids than what they read: stop readers before what they read
            all.sort(Comparator.comparingInt(TableDef::id).reversed());
            for (TableDef r : all) {
                Optional<ViewBackfills.Job> job = backfills.job(r.id());
                if (job.isPresent()) {
                    backfills.stageCancel(buffer, job.get());
                    cancelledJobs.add(job.get());
                } else {
                    if (r.isView()) {
                        runtime.stop(r.id());
                        cross.stageRemoval(buffer, r.id()).ifPresent(crossRemoved::add);
                        if (UnpopulatedViews.isUnpopulated(catalog(), r.id())) {
                            UnpopulatedViews.stageRemoval(buffer, r.id());
                            unpopulated.add(r);
                        }
                    }
                    CatalogService.stageRemoval(buffer, r);
                    catalog().remove(r.name());
                    catalog().created(r.id()); // a view that was not maintained is no longer marked
                }
                dropped.add(r);
            }
        }

        @Override
        public void committed() {
            crossRemoved.forEach(cross::dropped);
            for (ViewBackfills.Job j : cancelledJobs) {
                backfills.finish(
                        j,
                        new TributaryException(
                                SqlState.QUERY_CANCELED,
                                "materialized view \"" + j.view.name() + "\" was dropped while being created"));
            }
        }

        @Override
        public void failed() {
            unpopulated.forEach(v -> UnpopulatedViews.markUnreadable(catalog(), v));
            dropped.forEach(catalog()::put);
            detached.forEach(catalog()::put);
            crossRemoved.forEach(cross::restore);
        }
    }

    /** Names the relation {@code view} reads that leads to {@code target}, as PostgreSQL's detail line does. */
    private static String dependencyName(TableDef view, TableDef target, TableDef firstRead) {
        if (view.dependsOn(target.id())) {
            return target.kind().sqlName() + " " + target.name();
        }
        return firstRead == null
                ? target.kind().sqlName() + " " + target.name()
                : firstRead.kind().sqlName() + " " + firstRead.name();
    }
}
