package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.CheckDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.codec.RowCodec;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.plan.ScalarExpr;
import io.tributary.plan.ViewPlanner;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ALTER TABLE t ADD [CONSTRAINT n] CHECK (condition)} and {@code ALTER TABLE t DROP
 * CONSTRAINT [IF EXISTS] n} on a table's CHECK constraints. An added check is planned and named as
 * in CREATE TABLE ({@link CheckNaming}), then staged at an epoch boundary, where the store holds
 * every committed row of the table: each row is tested, and the first that fails refuses the
 * change with PostgreSQL's 23514, so the check and the rows it was tested on commit in one epoch.
 * Writers planned before the change fail at staging (see {@code TableWriter}) rather than skip the
 * new check. Called on session threads; thread-safe.
 */
public final class CheckDdl {
    private final CatalogService catalogService;
    private final BarrierManager barriers;
    private final StateStore store;
    private final ViewPlanner planner;

    public CheckDdl(CatalogService catalogService, BarrierManager barriers, StateStore store, ViewPlanner planner) {
        this.catalogService = catalogService;
        this.barriers = barriers;
        this.store = store;
        this.planner = planner;
    }

    /**
     * Adds {@code check} (named or not) to {@code tableName} once every stored row passes it;
     * returns when the new definition is durable.
     *
     * @throws TributaryException 42P01 unknown table; 42809 not a table; 0A000 for a table fed by a
     *     connector; 42710 a name in use; the planner's errors for the condition; 23514 when a
     *     stored row fails it (nothing changed)
     */
    public void add(String tableName, CheckDef check) throws InterruptedException {
        TableDef table = table(tableName);
        if (table.source() != null) {
            throw TributaryException.notSupported("CHECK constraints on a table fed by a connector");
        }
        TableDef after = new CheckNaming(planner).withChecks(table, List.of(check));
        CheckDef added = after.checks().get(after.checks().size() - 1);
        ScalarExpr condition = planner.planCheck(after, added.expression()).condition();
        barriers.awaitCommitted(barriers.stageAtBoundary(new Alter(table, after, added.name(), condition)));
    }

    /**
     * Drops the CHECK constraint {@code name} of {@code tableName}; returns when durable.
     *
     * @return PostgreSQL's notice when there is no such constraint and {@code ifExists} (nothing
     *     changed), else empty
     * @throws TributaryException 42P01 unknown table; 42809 not a table; 42704 no such constraint;
     *     0A000 for the primary key's constraint
     */
    public java.util.Optional<String> drop(String tableName, String name, boolean ifExists)
            throws InterruptedException {
        TableDef table = table(tableName);
        List<CheckDef> kept = new ArrayList<>(table.checks());
        if (!kept.removeIf(c -> c.name().equals(name))) {
            if (!table.hasRowId() && name.equals(table.localName() + "_pkey")) {
                throw TributaryException.notSupported("ALTER TABLE ... DROP CONSTRAINT of a primary key");
            }
            String missing = "constraint \"" + name + "\" of relation \"" + table.localName() + "\" does not exist";
            if (ifExists) {
                return java.util.Optional.of(missing + ", skipping");
            }
            throw new TributaryException(SqlState.UNDEFINED_OBJECT, missing);
        }
        barriers.awaitCommitted(barriers.stageAtBoundary(new Alter(table, table.withChecks(kept), null, null)));
        return java.util.Optional.empty();
    }

    private TableDef table(String name) {
        TableDef table = catalogService.catalog().require(name);
        if (table.isView()) {
            throw new TributaryException(
                    SqlState.WRONG_OBJECT_TYPE, "\"" + table.localName() + "\" is not a table or foreign table");
        }
        return table;
    }

    /** The new definition, and for an added check its test of the stored rows, as one epoch's change. */
    private final class Alter implements EpochChange {
        private final TableDef before;
        private final TableDef after;
        private final String checkName;
        private final ScalarExpr condition;

        /** {@code condition} (named {@code checkName}) is tested on every stored row; null for a drop. */
        Alter(TableDef before, TableDef after, String checkName, ScalarExpr condition) {
            this.before = before;
            this.after = after;
            this.checkName = checkName;
            this.condition = condition;
        }

        @Override
        public void stage(WriteBuffer epoch) {
            Catalog catalog = catalogService.catalog();
            ConstraintAlterGuard.requireUnchanged(catalog, before);
            if (condition != null) {
                validate();
            }
            catalogService.stageRecord(epoch, after);
            catalog.put(after);
        }

        @Override
        public void failed() {
            catalogService.putBack(before, after);
        }

        /** 23514 unless every committed row passes the condition (NULL passes, as in PostgreSQL). */
        private void validate() {
            RowCodec rows = new RowCodec(before.columnTypes());
            try (ReadView committed = store.latest();
                    KvIterator it = committed.scan(
                            Keyspace.DATA, TableKeys.tableStart(before.id()), TableKeys.tableEnd(before.id()))) {
                while (it.next()) {
                    if (Boolean.FALSE.equals(condition.eval(rows.decode(it.value())))) {
                        throw new TributaryException(
                                SqlState.CHECK_VIOLATION,
                                "check constraint \"" + checkName + "\" of relation \"" + before.localName()
                                        + "\" is violated by some row");
                    }
                }
            }
        }
    }
}
