package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ForeignKeyDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.storage.WriteBuffer;
import java.util.List;
import java.util.Optional;

/**
 * {@code ALTER TABLE t ADD [CONSTRAINT n] FOREIGN KEY ...} and {@code ALTER TABLE t DROP
 * CONSTRAINT n} of a FOREIGN KEY constraint. An added constraint is resolved and named as in
 * CREATE TABLE ({@link ForeignKeyResolution}), then staged at an epoch boundary, where every
 * committed row of the table is looked up among the referenced rows first (PostgreSQL's 23503 for
 * the first without one), so the constraint and the rows it was validated on commit in one epoch,
 * and every writer staged after it checks it. Called on session threads; thread-safe.
 */
public final class ForeignKeyDdl {
    /** Tests every stored row of a table against one of its constraints; wired by the database. */
    public interface Validation {
        /**
         * @throws TributaryException 23503 naming the first row of {@code table} whose key {@code
         *     constraint} finds no referenced row for, in the state {@code epoch} leaves
         */
        void validate(Catalog catalog, WriteBuffer epoch, TableDef table, ForeignKeyDef constraint);
    }

    private final CatalogService catalogService;
    private final BarrierManager barriers;
    private final Validation validation;

    public ForeignKeyDdl(CatalogService catalogService, BarrierManager barriers, Validation validation) {
        this.catalogService = catalogService;
        this.barriers = barriers;
        this.validation = validation;
    }

    /**
     * Adds {@code constraint} to {@code tableName} once every stored row has its referenced row;
     * returns when the new definition is durable.
     *
     * @throws TributaryException as {@link ForeignKeyResolution#withForeignKeys}; 23503 when a
     *     stored row has no referenced row (nothing changed)
     */
    public void add(String tableName, ForeignKeyDef constraint) throws InterruptedException {
        TableDef table = catalogService.catalog().require(tableName);
        if (table.isView()) {
            throw new TributaryException(
                    SqlState.WRONG_OBJECT_TYPE, "\"" + table.localName() + "\" is not a table or foreign table");
        }
        TableDef after = ForeignKeyResolution.withForeignKeys(catalogService.catalog(), table, List.of(constraint));
        ForeignKeyDef added = after.foreignKeys().get(after.foreignKeys().size() - 1);
        barriers.awaitCommitted(barriers.stageAtBoundary(new Alter(table, after, added)));
    }

    /**
     * Drops FOREIGN KEY constraint {@code name} of {@code tableName} when it has one; returns when
     * durable.
     *
     * @return false when the table has no such foreign key (another kind of constraint may have the name)
     */
    public boolean drop(String tableName, String name) throws InterruptedException {
        Optional<TableDef> table = catalogService.catalog().table(tableName);
        if (table.isEmpty()
                || table.get().foreignKeys().stream().noneMatch(f -> f.name().equals(name))) {
            return false;
        }
        TableDef after = table.get()
                .withForeignKeys(table.get().foreignKeys().stream()
                        .filter(f -> !f.name().equals(name))
                        .toList());
        barriers.awaitCommitted(barriers.stageAtBoundary(new Alter(table.get(), after, null)));
        return true;
    }

    /** The new definition, and for an added constraint its test of the stored rows, as one epoch's change. */
    private final class Alter implements EpochChange {
        private final TableDef before;
        private final TableDef after;
        /** The constraint to validate; null for a drop. */
        private final ForeignKeyDef added;

        Alter(TableDef before, TableDef after, ForeignKeyDef added) {
            this.before = before;
            this.after = after;
            this.added = added;
        }

        @Override
        public void stage(WriteBuffer epoch) {
            Catalog catalog = catalogService.catalog();
            ConstraintAlterGuard.requireUnchanged(catalog, before);
            if (added != null) {
                if (catalog.table(added.parent()).isEmpty()) {
                    throw Catalog.undefinedTable(added.parent());
                }
                validation.validate(catalog, epoch, after, added);
            }
            catalogService.stageRecord(epoch, after);
            catalog.put(after);
        }

        @Override
        public void failed() {
            catalogService.putBack(before, after);
        }
    }
}
